#include "csystemdbus.h"

#include <errno.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <time.h>

static const char *const object_path = "/org/mpris/MediaPlayer2";
static const char *const player_interface = "org.mpris.MediaPlayer2.Player";

static int get_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    onair_mpris_handlers *handlers = userdata;
    return handlers->get_property(handlers->context, interface, property, reply);
}

static int set_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *value, void *userdata, sd_bus_error *error) {
    onair_mpris_handlers *handlers = userdata;
    return handlers->set_property(handlers->context, property, value);
}

static int call_method(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    onair_mpris_handlers *handlers = userdata;
    int result = handlers->call_method(handlers->context, sd_bus_message_get_member(call), call);
    if (result < 0) return result;
    return sd_bus_reply_method_return(call, NULL);
}

#define CHANGING SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
#define FIXED SD_BUS_VTABLE_PROPERTY_CONST

static const sd_bus_vtable root_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Raise", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Quit", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("CanQuit", "b", get_property, 0, FIXED),
    SD_BUS_PROPERTY("CanRaise", "b", get_property, 0, FIXED),
    SD_BUS_PROPERTY("HasTrackList", "b", get_property, 0, FIXED),
    SD_BUS_PROPERTY("Identity", "s", get_property, 0, FIXED),
    SD_BUS_PROPERTY("SupportedUriSchemes", "as", get_property, 0, FIXED),
    SD_BUS_PROPERTY("SupportedMimeTypes", "as", get_property, 0, FIXED),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable player_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Next", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Previous", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Pause", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("PlayPause", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Stop", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Play", "", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Seek", "x", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("SetPosition", "ox", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("OpenUri", "s", "", call_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL("Seeked", "x", 0),
    SD_BUS_PROPERTY("PlaybackStatus", "s", get_property, 0, CHANGING),
    SD_BUS_PROPERTY("Rate", "d", get_property, 0, CHANGING),
    SD_BUS_PROPERTY("MinimumRate", "d", get_property, 0, CHANGING),
    SD_BUS_PROPERTY("MaximumRate", "d", get_property, 0, CHANGING),
    SD_BUS_PROPERTY("Metadata", "a{sv}", get_property, 0, CHANGING),
    SD_BUS_WRITABLE_PROPERTY("Volume", "d", get_property, set_property, 0, CHANGING | SD_BUS_VTABLE_UNPRIVILEGED),
    // The position changes all the time; clients read it when they need it (MPRIS says not to signal it).
    SD_BUS_PROPERTY("Position", "x", get_property, 0, 0),
    SD_BUS_PROPERTY("CanGoNext", "b", get_property, 0, CHANGING),
    SD_BUS_PROPERTY("CanGoPrevious", "b", get_property, 0, CHANGING),
    SD_BUS_PROPERTY("CanPlay", "b", get_property, 0, CHANGING),
    SD_BUS_PROPERTY("CanPause", "b", get_property, 0, CHANGING),
    SD_BUS_PROPERTY("CanSeek", "b", get_property, 0, CHANGING),
    SD_BUS_PROPERTY("CanControl", "b", get_property, 0, FIXED),
    SD_BUS_VTABLE_END,
};

int onair_mpris_open(const char *bus_name, onair_mpris_handlers *handlers, sd_bus **bus) {
    sd_bus *connection = NULL;
    int result = sd_bus_open_user(&connection);
    if (result < 0) return result;
    if ((result = sd_bus_add_object_vtable(connection, NULL, object_path, "org.mpris.MediaPlayer2", root_vtable, handlers)) < 0
        || (result = sd_bus_add_object_vtable(connection, NULL, object_path, player_interface, player_vtable, handlers)) < 0
        || (result = sd_bus_request_name(connection, bus_name, 0)) < 0) {
        sd_bus_unref(connection);
        return result;
    }
    *bus = connection;
    return 0;
}

int onair_mpris_run_once(sd_bus *bus, int wake_fd, uint64_t timeout_usec) {
    int result;
    while ((result = sd_bus_process(bus, NULL)) > 0) {}
    if (result < 0) return result;
    uint64_t due = UINT64_MAX;
    if (sd_bus_get_timeout(bus, &due) >= 0 && due != UINT64_MAX) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t now_usec = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
        uint64_t left = due > now_usec ? due - now_usec : 0;
        if (left < timeout_usec) timeout_usec = left;
    }
    int events = sd_bus_get_events(bus);
    if (events < 0) return events;
    struct pollfd descriptors[2] = {
        {.fd = sd_bus_get_fd(bus), .events = (short)events},
        {.fd = wake_fd, .events = POLLIN},
    };
    if (poll(descriptors, 2, (int)((timeout_usec + 999) / 1000)) < 0 && errno != EINTR) return -errno;
    return 0;
}

int onair_mpris_player_changed(sd_bus *bus, char **names) {
    return sd_bus_emit_properties_changed_strv(bus, object_path, player_interface, names);
}

int onair_mpris_seeked(sd_bus *bus, int64_t position_usec) {
    return sd_bus_emit_signal(bus, object_path, player_interface, "Seeked", "x", position_usec);
}

void onair_mpris_close(sd_bus *bus) {
    sd_bus_flush_close_unref(bus);
}

int onair_wake_open(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

void onair_wake_signal(int fd) {
    uint64_t one = 1;
    (void)!write(fd, &one, sizeof one);
}

void onair_wake_drain(int fd) {
    uint64_t count;
    (void)!read(fd, &count, sizeof count);
}
