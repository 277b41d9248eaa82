#ifndef PAGEHOST_CGLIB_SHIM_H
#define PAGEHOST_CGLIB_SHIM_H
#include <glib.h>
#include <glib-unix.h>
#endif
