#ifndef PRESENTD_CSYSTEMD_SHIM_H
#define PRESENTD_CSYSTEMD_SHIM_H
/* The part of libsystemd's sd-daemon API (sd-daemon(3), <systemd/sd-daemon.h>) presentd
   uses. Declared here rather than by including that header: it includes <sys/socket.h>,
   and a third C module holding the socket declarations (besides Glibc and CLibUV) hides
   SOCK_STREAM, SOCK_NONBLOCK and SOCK_CLOEXEC from Swift files that import only Glibc and
   CLibUV, so a clean build fails. The prototypes are sd-daemon.h's (systemd 252);
   `make test-systemd` compiles them together with the real header, so a mismatch is caught. */
#include <stddef.h>
#include <stdint.h>

#define SD_LISTEN_FDS_START 3

int sd_listen_fds_with_names(int unset_environment, char ***names);
int sd_is_socket_unix(int fd, int type, int listening, const char *path, size_t length);
int sd_notify(int unset_environment, const char *state);
int sd_watchdog_enabled(int unset_environment, uint64_t *usec);
#endif
