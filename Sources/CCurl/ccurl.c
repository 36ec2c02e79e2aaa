#include "ccurl.h"

CURLcode onair_curl_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
CURLcode onair_curl_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}
CURLcode onair_curl_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}
CURLcode onair_curl_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(easy, option, value);
}
CURLcode onair_curl_setopt_write_function(CURL *easy, curl_write_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, callback);
}
CURLcode onair_curl_setopt_header_function(CURL *easy, curl_write_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, callback);
}
CURLcode onair_curl_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}
CURLcode onair_curl_getinfo_string(CURL *easy, CURLINFO info, char **value) {
    return curl_easy_getinfo(easy, info, value);
}
CURLcode onair_curl_getinfo_pointer(CURL *easy, CURLINFO info, void **value) {
    return curl_easy_getinfo(easy, info, value);
}
CURLMcode onair_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
CURLMcode onair_curl_multi_setopt_socket_function(CURLM *multi, curl_socket_callback callback, void *userdata) {
    CURLMcode result = curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
    return result == CURLM_OK ? curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, userdata) : result;
}
CURLMcode onair_curl_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback callback, void *userdata) {
    CURLMcode result = curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
    return result == CURLM_OK ? curl_multi_setopt(multi, CURLMOPT_TIMERDATA, userdata) : result;
}
curl_socket_t onair_curl_socket_timeout(void) { return CURL_SOCKET_TIMEOUT; }
size_t onair_curl_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
