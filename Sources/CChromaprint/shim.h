// Chromaprint's C API (Debian's libchromaprint-dev), for ClipDetection's typed wrapper. Nothing else belongs here.
#ifndef ONAIR_CCHROMAPRINT_SHIM_H
#define ONAIR_CCHROMAPRINT_SHIM_H

#include <chromaprint.h>

#endif
