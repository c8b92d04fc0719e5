#ifndef PRESENTD_CSYSTEMD_SHIM_H
#define PRESENTD_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#endif
