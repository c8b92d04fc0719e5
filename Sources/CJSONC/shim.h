#ifndef PRESENTD_CJSONC_SHIM_H
#define PRESENTD_CJSONC_SHIM_H
/* <json-c/json.h>, not <json.h>: it then builds without pkg-config's -I. */
#include <json-c/json.h>
#endif
