// Typed wrappers for libcurl's variadic setopt/getinfo, which Swift cannot call directly.
#ifndef ONAIR_CCURL_H
#define ONAIR_CCURL_H

#include <curl/curl.h>
// The network thread waits on curl's sockets in epoll and is woken through an eventfd; Swift's Glibc
// module leaves both out.
#include <sys/epoll.h>
#include <sys/eventfd.h>

CURLcode onair_curl_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode onair_curl_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode onair_curl_setopt_pointer(CURL *easy, CURLoption option, void *value);
CURLcode onair_curl_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value);
CURLcode onair_curl_setopt_write_function(CURL *easy, curl_write_callback callback);
CURLcode onair_curl_setopt_header_function(CURL *easy, curl_write_callback callback);

CURLcode onair_curl_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode onair_curl_getinfo_string(CURL *easy, CURLINFO info, char **value);
CURLcode onair_curl_getinfo_pointer(CURL *easy, CURLINFO info, void **value);

CURLMcode onair_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode onair_curl_multi_setopt_socket_function(CURLM *multi, curl_socket_callback callback, void *userdata);
CURLMcode onair_curl_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback callback, void *userdata);

/// CURL_SOCKET_TIMEOUT is a macro of a macro.
curl_socket_t onair_curl_socket_timeout(void);

/// CURL_WRITEFUNC_PAUSE is a macro.
size_t onair_curl_writefunc_pause(void);

#endif
