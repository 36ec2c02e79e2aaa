// The MPRIS object on sd-bus: sd-bus describes an object by a vtable built with C macros, and some of its
// calls are variadic, so both live here; Swift answers each call and property through `onair_mpris_handlers`.
#ifndef ONAIR_CSYSTEMDBUS_H
#define ONAIR_CSYSTEMDBUS_H

#include <stdint.h>
#include <systemd/sd-bus.h>

/// Swift's answers. Each returns 0 or a negative errno; `reply`/`value` are read and written with
/// sd_bus_message_append_basic, _open_container, _close_container and _read_basic.
typedef struct {
    void *context;
    /// Appends the value of `property` (of `interface`) to `reply`.
    int (*get_property)(void *context, const char *interface, const char *property, sd_bus_message *reply);
    /// Reads the new value of a writable `property` from `value`.
    int (*set_property)(void *context, const char *property, sd_bus_message *value);
    /// Handles `member` (a method of either interface); its arguments are read from `call`.
    int (*call_method)(void *context, const char *member, sd_bus_message *call);
} onair_mpris_handlers;

/// Connects to the session bus, publishes /org/mpris/MediaPlayer2 (org.mpris.MediaPlayer2 and .Player)
/// and takes `bus_name`. On success `*bus` is the connection (0 returned); else a negative errno.
/// `handlers` must outlive the connection.
int onair_mpris_open(const char *bus_name, onair_mpris_handlers *handlers, sd_bus **bus);

/// Processes what is pending, then sleeps until the bus or `wake_fd` has something, or `timeout_usec`
/// passes. Returns a negative errno when the connection is lost.
int onair_mpris_run_once(sd_bus *bus, int wake_fd, uint64_t timeout_usec);

/// PropertiesChanged for the NULL-terminated `names` of org.mpris.MediaPlayer2.Player.
int onair_mpris_player_changed(sd_bus *bus, char **names);

/// The Seeked signal, with the new position in microseconds.
int onair_mpris_seeked(sd_bus *bus, int64_t position_usec);

/// An eventfd that wakes `onair_mpris_run_once` from another thread: signals coalesce until drained.
int onair_wake_open(void);
void onair_wake_signal(int fd);
void onair_wake_drain(int fd);

/// Closes the connection (and releases the name).
void onair_mpris_close(sd_bus *bus);

#endif
