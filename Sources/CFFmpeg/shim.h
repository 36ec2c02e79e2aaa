// Exposes to Swift what FFmpeg only offers as macros. Nothing else belongs here.
#ifndef ONAIR_CFFMPEG_SHIM_H
#define ONAIR_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavdevice/avdevice.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libavutil/mem.h>
#include <libavutil/log.h>
#include <dlfcn.h>
#include <libavutil/aes.h>
#include <libavutil/audio_fifo.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>

static inline int onair_averror(int posix_errno) { return AVERROR(posix_errno); }
static inline int onair_averror_eof(void) { return AVERROR_EOF; }
static inline int onair_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int onair_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t onair_av_nopts_value(void) { return AV_NOPTS_VALUE; }

/// av_err2str is a macro over a compound literal; this writes into a caller buffer instead.
static inline const char *onair_av_err2str(int errnum, char *buf, size_t size) {
    return av_make_error_string(buf, size, errnum);
}

/// The default layout for a channel count (AV_CHANNEL_LAYOUT_* are macros).
static inline void onair_default_channel_layout(AVChannelLayout *layout, int channels) {
    av_channel_layout_default(layout, channels);
}


/// libavdevice's ALSA output leaves alsa-lib printing its own errors ("ALSA lib pcm.c: Unknown PCM
/// default") to stderr on every failed open; the failure reaches Swift as an FFmpeg error anyway.
/// alsa-lib's error handler is variadic, which Swift cannot implement, so it is set here, through
/// dlsym so that nothing links to libasound beyond what libavdevice already loads.
static inline void onair_alsa_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void onair_silence_alsa_errors(void) {
    typedef void (*handler)(const char *, int, const char *, int, const char *, ...);
    int (*set_handler)(handler) = (int (*)(handler))dlsym(RTLD_DEFAULT, "snd_lib_error_set_handler");
    if (set_handler) set_handler(onair_alsa_quiet_handler);
}

#endif
