#ifndef CHIME_CLIBXML2_SHIM_H
#define CHIME_CLIBXML2_SHIM_H

// libxml2's SAX2 push parser, for WebDAV's multistatus reader.
//
// Debian's libxml2 is built with ICU, and its encoding.h then includes
// ICU's headers, which clash with the ICU inside Foundation: taken off
// before the rest is included. That changes only the layout of
// xmlCharEncodingHandler, which the reader never touches (it uses the
// parser context as an opaque pointer, and the SAX handler and error
// structs, which hold nothing of ICU's).
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

// XML_SAX2_MAGIC is a macro Swift may import with another type than the
// handler's field: hand it over as that field's type.
static inline unsigned int clibxml2_sax2_magic(void) {
    return XML_SAX2_MAGIC;
}

#endif
