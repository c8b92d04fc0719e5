#ifndef PRESENTD_CLIBUV_SHIM_H
#define PRESENTD_CLIBUV_SHIM_H
#include <uv.h>
/* Swift's Glibc module lacks these; the frame clock uses a timerfd and the
   listener reads peer credentials. */
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
/* accept4 is declared only under _GNU_SOURCE, which must not be defined here (a
   shim with it breaks any file that also imports Foundation). glibc always
   exports it; declaring the prototype ourselves is enough. The listener uses it
   to get SOCK_NONBLOCK | SOCK_CLOEXEC atomically. */
extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);
/* A hint to bring the cache line at `address` in before it is used (Swift has no
   prefetch of its own). The frame fan-out fetches the next subscriber's connection
   while this one's send(2) runs: after a system call that line was always cold. */
static inline void presentd_prefetch(const void *address) { __builtin_prefetch(address); }
#endif
