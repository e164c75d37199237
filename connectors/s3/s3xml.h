#pragma once

#include "connectors/error.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace strata::s3 {

/// A minimal element tree of an S3 XML document: element names as written (S3 uses no prefixes,
/// the default namespace attribute is ignored), character data concatenated and kept verbatim.
/// Attributes are dropped: no S3 response Strata reads carries data in them.
struct XmlElement
{
    std::string name;
    std::string text;
    std::vector<XmlElement> children;

    /// First direct child called `name`, or nullptr.
    [[nodiscard]] const XmlElement *child(std::string_view childName) const;
    /// Text of the first direct child called `name`, or `fallback` when there is none.
    [[nodiscard]] std::string childText(std::string_view childName, std::string fallback = {}) const;
    /// Every direct child called `name`, in document order.
    [[nodiscard]] std::vector<const XmlElement *> childrenNamed(std::string_view childName) const;
};

/// Parses `xml` with expat into a tree. Errors (not well-formed, truncated, empty, deeper than
/// 64 levels, DOCTYPE/entity declarations) come back as text naming expat's reason and line.
struct XmlParseResult
{
    std::unique_ptr<XmlElement> root; ///< null on error
    std::string error;
};
XmlParseResult parseXml(std::string_view xml);

} // namespace strata::s3
