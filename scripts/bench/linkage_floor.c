/* The floor under onair's start-up and memory: a C program that links what onair must link from Debian
 * (libavformat, libavcodec, libswresample, libavutil, libcurl) and does only what a relay needs of them
 * before the first byte: it opens the MP3 decoder, a resampler and a libcurl multi handle. No Swift, no
 * code of onair's. `--version` prints the versions and exits (the start-up floor); `hold` opens them and
 * waits for a signal, so its RSS can be read beside the relay's (the memory floor).
 * Built and run by footprint.py. */
#include <curl/curl.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswresample/swresample.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("libavformat %s, %s\n", av_version_info(), curl_version());
        return 0;
    }
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_MP3);
    AVCodecContext *context = avcodec_alloc_context3(codec);
    SwrContext *resampler = swr_alloc();
    CURLM *multi = curl_multi_init();
    if (!codec || !context || avcodec_open2(context, codec, NULL) < 0 || !resampler || !multi) {
        fputs("linkage_floor: cannot open the MP3 decoder, a resampler or libcurl\n", stderr);
        return 1;
    }
    pause();
    return 0;
}
