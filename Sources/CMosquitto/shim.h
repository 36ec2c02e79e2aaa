// libmosquitto's C API (Debian's libmosquitto-dev), the Eclipse Mosquitto project's own client, for MQTT's typed
// wrapper. Nothing else belongs here.
#ifndef ONAIR_CMOSQUITTO_SHIM_H
#define ONAIR_CMOSQUITTO_SHIM_H

#include <mosquitto.h>

#endif
