#include <curl/curl.h>

// libcurl is opened when storysite first sends a request, not when it starts (LimitedFetcher's
// Libcurl): linked, it and the thirty libraries it needs took 3.5 ms of every run, and a build
// of a content folder sends none. These are the functions storysite calls, as found in the
// library; the wrappers below call them with their types.
struct storysite_curl {
    void *global_init;
    void *easy_init;
    void *easy_cleanup;
    void *easy_reset;
    void *easy_perform;
    void *easy_setopt;
    void *slist_append;
    void *slist_free_all;
};

static inline CURLcode storysite_curl_global_init(const struct storysite_curl *curl, long flags)
{
    return ((CURLcode (*)(long))curl->global_init)(flags);
}

static inline CURL *storysite_curl_easy_init(const struct storysite_curl *curl)
{
    return ((CURL *(*)(void))curl->easy_init)();
}

static inline void storysite_curl_easy_cleanup(const struct storysite_curl *curl, CURL *handle)
{
    ((void (*)(CURL *))curl->easy_cleanup)(handle);
}

static inline void storysite_curl_easy_reset(const struct storysite_curl *curl, CURL *handle)
{
    ((void (*)(CURL *))curl->easy_reset)(handle);
}

static inline CURLcode storysite_curl_easy_perform(const struct storysite_curl *curl, CURL *handle)
{
    return ((CURLcode (*)(CURL *))curl->easy_perform)(handle);
}

static inline struct curl_slist *storysite_curl_slist_append(const struct storysite_curl *curl, struct curl_slist *list, const char *text)
{
    return ((struct curl_slist *(*)(struct curl_slist *, const char *))curl->slist_append)(list, text);
}

static inline void storysite_curl_slist_free_all(const struct storysite_curl *curl, struct curl_slist *list)
{
    ((void (*)(struct curl_slist *))curl->slist_free_all)(list);
}

// Swift cannot call C variadic functions, so curl_easy_setopt is reached through these fixed
// signatures, one per argument type.
typedef CURLcode (*storysite_curl_setopt)(CURL *, CURLoption, ...);

static inline CURLcode storysite_curl_set_long(const struct storysite_curl *curl, CURL *handle, CURLoption option, long value)
{
    return ((storysite_curl_setopt)curl->easy_setopt)(handle, option, value);
}

static inline CURLcode storysite_curl_set_string(const struct storysite_curl *curl, CURL *handle, CURLoption option, const char *value)
{
    return ((storysite_curl_setopt)curl->easy_setopt)(handle, option, value);
}

static inline CURLcode storysite_curl_set_pointer(const struct storysite_curl *curl, CURL *handle, CURLoption option, void *value)
{
    return ((storysite_curl_setopt)curl->easy_setopt)(handle, option, value);
}

static inline CURLcode storysite_curl_set_headers(const struct storysite_curl *curl, CURL *handle, struct curl_slist *headers)
{
    return ((storysite_curl_setopt)curl->easy_setopt)(handle, CURLOPT_HTTPHEADER, headers);
}

// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode storysite_curl_set_write(
    const struct storysite_curl *curl, CURL *handle, CURLoption option, curl_write_callback callback)
{
    return ((storysite_curl_setopt)curl->easy_setopt)(handle, option, callback);
}

static inline CURLcode storysite_curl_set_progress(const struct storysite_curl *curl, CURL *handle, curl_xferinfo_callback callback)
{
    return ((storysite_curl_setopt)curl->easy_setopt)(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
