#ifndef PRESENTD_CLIBUV_SHIM_H
#define PRESENTD_CLIBUV_SHIM_H
#include <uv.h>
/* Swift's Glibc module lacks these; the frame clock uses a timerfd and the
   listener reads peer credentials. */
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#endif
