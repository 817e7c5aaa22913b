// libxml2's HTML parser, for the link checker.
//
// Debian builds libxml2 with ICU, so <libxml/encoding.h> would include the system's ICU headers,
// whose `UErrorCode` clashes with the copy of ICU inside Foundation in any Swift module that
// imports both. storysite never touches the ICU converter fields (the last two pointers of
// xmlCharEncodingHandler, only ever used through pointers), so the ICU part is left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
