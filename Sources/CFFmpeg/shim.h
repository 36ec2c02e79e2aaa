// Exposes to Swift what FFmpeg only offers as macros. Nothing else belongs here.
#ifndef ONAIR_CFFMPEG_SHIM_H
#define ONAIR_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libavutil/mem.h>
#include <libavutil/log.h>

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

#endif
