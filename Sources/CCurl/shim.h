#include <curl/curl.h>

// Swift cannot call C variadic functions, so curl_easy_setopt and curl_easy_getinfo are
// reached through these fixed signatures, one per argument type.
static inline CURLcode storysite_curl_set_long(CURL *handle, CURLoption option, long value)
{
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode storysite_curl_set_string(CURL *handle, CURLoption option, const char *value)
{
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode storysite_curl_set_pointer(CURL *handle, CURLoption option, void *value)
{
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode storysite_curl_set_headers(CURL *handle, struct curl_slist *headers)
{
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode storysite_curl_set_write(CURL *handle, CURLoption option, curl_write_callback callback)
{
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode storysite_curl_set_progress(CURL *handle, curl_xferinfo_callback callback)
{
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

// The status of the last response received (0 when none came).
static inline long storysite_curl_response_code(CURL *handle)
{
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

// The URL of the last request, after redirects (NULL when unknown).
static inline const char *storysite_curl_effective_url(CURL *handle)
{
    char *url = NULL;
    curl_easy_getinfo(handle, CURLINFO_EFFECTIVE_URL, &url);
    return url;
}
