#ifndef CHIME_CCURL_SHIM_H
#define CHIME_CCURL_SHIM_H

// libcurl for the downloads (HTTPDownload), opened with dlopen when a fetch
// starts and not linked: a linked libcurl (FoundationNetworking's) makes
// every chime command load and relocate libcurl, OpenSSL, GnuTLS, Kerberos
// and LDAP before it runs. Nothing here links; the names below are
// libcurl.so.4's stable ABI as curl/curl.h gives it, spelled out so that the
// development package is not needed (HolidayFeedTests checks each option's
// number against the library's own table).
#include <stddef.h>

typedef void CURL;
typedef int CURLcode;

#define CHIME_CURLE_OK 0
#define CHIME_CURL_ERROR_SIZE 256
#define CHIME_CURL_GLOBAL_DEFAULT 3
#define CHIME_CURLPROTO_HTTP 1
#define CHIME_CURLPROTO_HTTPS 2
#define CHIME_CURLINFO_RESPONSE_CODE 0x200002
#define CHIME_CURLINFO_EFFECTIVE_URL 0x100001
// The absolute address a 3xx answer's Location leads to (libcurl 7.18.2 and later).
#define CHIME_CURLINFO_REDIRECT_URL 0x10001f
#define CHIME_CURLAUTH_BASIC 1

// The CURLcodes a download tells apart.
#define CHIME_CURLE_UNSUPPORTED_PROTOCOL 1
#define CHIME_CURLE_URL_MALFORMAT 3
#define CHIME_CURLE_COULDNT_RESOLVE_PROXY 5
#define CHIME_CURLE_COULDNT_RESOLVE_HOST 6
#define CHIME_CURLE_COULDNT_CONNECT 7
#define CHIME_CURLE_WRITE_ERROR 23
#define CHIME_CURLE_OPERATION_TIMEDOUT 28
#define CHIME_CURLE_SSL_CONNECT_ERROR 35
#define CHIME_CURLE_TOO_MANY_REDIRECTS 47
#define CHIME_CURLE_UNKNOWN_OPTION 48
#define CHIME_CURLE_PEER_FAILED_VERIFICATION 60

#define CHIME_CURLOPT_WRITEDATA 10001
#define CHIME_CURLOPT_URL 10002
#define CHIME_CURLOPT_ERRORBUFFER 10010
#define CHIME_CURLOPT_USERAGENT 10018
#define CHIME_CURLOPT_LOW_SPEED_LIMIT 19
#define CHIME_CURLOPT_LOW_SPEED_TIME 20
#define CHIME_CURLOPT_FOLLOWLOCATION 52
#define CHIME_CURLOPT_MAXREDIRS 68
#define CHIME_CURLOPT_NOSIGNAL 99
#define CHIME_CURLOPT_ACCEPT_ENCODING 10102
#define CHIME_CURLOPT_TIMEOUT_MS 155
#define CHIME_CURLOPT_CONNECTTIMEOUT_MS 156
#define CHIME_CURLOPT_PROTOCOLS 181
#define CHIME_CURLOPT_REDIR_PROTOCOLS 182
#define CHIME_CURLOPT_WRITEFUNCTION 20011
#define CHIME_CURLOPT_HTTPHEADER 10023
#define CHIME_CURLOPT_HEADERDATA 10029
#define CHIME_CURLOPT_HEADERFUNCTION 20079
#define CHIME_CURLOPT_USERNAME 10173
#define CHIME_CURLOPT_PASSWORD 10174
#define CHIME_CURLOPT_HTTPGET 80
#define CHIME_CURLOPT_CUSTOMREQUEST 10036
#define CHIME_CURLOPT_POSTFIELDS 10015
#define CHIME_CURLOPT_POSTFIELDSIZE 60
#define CHIME_CURLOPT_HTTPAUTH 107
#define CHIME_CURLOPT_SSL_VERIFYPEER 64
#define CHIME_CURLOPT_SSL_VERIFYHOST 81
// libcurl 7.85 and later; PROTOCOLS and REDIR_PROTOCOLS are their bitmask forms before.
#define CHIME_CURLOPT_PROTOCOLS_STR 10318
#define CHIME_CURLOPT_REDIR_PROTOCOLS_STR 10319

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call through a pointer: these make the call with the argument's C type.
// `function` is the symbol dlsym found.
static inline CURLcode chime_curl_setopt_long(void *function, CURL *handle, int option, long value) {
    return ((CURLcode (*)(CURL *, int, ...))function)(handle, option, value);
}

static inline CURLcode chime_curl_setopt_pointer(void *function, CURL *handle, int option, const void *value) {
    return ((CURLcode (*)(CURL *, int, ...))function)(handle, option, value);
}

static inline CURLcode chime_curl_getinfo_long(void *function, CURL *handle, int info, long *value) {
    return ((CURLcode (*)(CURL *, int, ...))function)(handle, info, value);
}

static inline CURLcode chime_curl_getinfo_string(void *function, CURL *handle, int info, const char **value) {
    return ((CURLcode (*)(CURL *, int, ...))function)(handle, info, value);
}

// The number libcurl itself gives an option (curl_easy_option_by_name,
// libcurl 7.73 and later), or -1: what the test compares the numbers above with.
struct chime_curl_easyoption {
    const char *name;
    int id;
    int type;
    unsigned int flags;
};

static inline int chime_curl_option_number(void *option_by_name, const char *name) {
    const struct chime_curl_easyoption *option = ((const struct chime_curl_easyoption *(*)(const char *))option_by_name)(name);
    return option ? option->id : -1;
}

#endif
