#include "connectors/s3/s3xml.h"

#include <expat.h>
#include <limits>

namespace strata::s3 {

namespace {

constexpr int MaxDepth = 64;

struct ParseState
{
    XML_Parser parser = nullptr;
    std::unique_ptr<XmlElement> root;
    std::vector<XmlElement *> stack;
    std::string error;
};

void stopWith(ParseState &state, std::string reason)
{
    if (state.error.empty()) {
        state.error = std::move(reason);
    }
    XML_StopParser(state.parser, XML_FALSE);
}

void XMLCALL onStart(void *userData, const XML_Char *name, const XML_Char **)
{
    auto &state = *static_cast<ParseState *>(userData);
    if (state.stack.size() >= MaxDepth) {
        stopWith(state, "elements nested deeper than " + std::to_string(MaxDepth) + " levels");
        return;
    }
    if (state.stack.empty()) {
        state.root = std::make_unique<XmlElement>();
        state.root->name = name;
        state.stack.push_back(state.root.get());
        return;
    }
    XmlElement &parent = *state.stack.back();
    parent.children.emplace_back();
    parent.children.back().name = name;
    state.stack.push_back(&parent.children.back());
}

void XMLCALL onEnd(void *userData, const XML_Char *)
{
    auto &state = *static_cast<ParseState *>(userData);
    if (!state.stack.empty()) {
        state.stack.pop_back();
    }
}

void XMLCALL onText(void *userData, const XML_Char *text, int length)
{
    auto &state = *static_cast<ParseState *>(userData);
    if (!state.stack.empty() && length > 0) {
        state.stack.back()->text.append(text, static_cast<std::size_t>(length));
    }
}

// S3 documents never declare entities; refusing them closes the billion-laughs door.
void XMLCALL onEntityDecl(void *userData,
                          const XML_Char *,
                          int,
                          const XML_Char *,
                          int,
                          const XML_Char *,
                          const XML_Char *,
                          const XML_Char *,
                          const XML_Char *)
{
    stopWith(*static_cast<ParseState *>(userData), "entity declarations are not allowed");
}

void XMLCALL onDoctype(void *userData, const XML_Char *, const XML_Char *, const XML_Char *, int)
{
    stopWith(*static_cast<ParseState *>(userData), "a DOCTYPE is not allowed");
}

} // namespace

const XmlElement *XmlElement::child(std::string_view childName) const
{
    for (const XmlElement &element : children) {
        if (element.name == childName) {
            return &element;
        }
    }
    return nullptr;
}

std::string XmlElement::childText(std::string_view childName, std::string fallback) const
{
    const XmlElement *element = child(childName);
    return element ? element->text : std::move(fallback);
}

std::vector<const XmlElement *> XmlElement::childrenNamed(std::string_view childName) const
{
    std::vector<const XmlElement *> result;
    for (const XmlElement &element : children) {
        if (element.name == childName) {
            result.push_back(&element);
        }
    }
    return result;
}

XmlParseResult parseXml(std::string_view xml)
{
    XmlParseResult result;
    if (xml.empty()) {
        result.error = "empty body";
        return result;
    }
    if (xml.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        result.error = "document too large";
        return result;
    }
    ParseState state;
    state.parser = XML_ParserCreate("UTF-8");
    if (!state.parser) {
        result.error = "out of memory creating the XML parser";
        return result;
    }
    XML_SetUserData(state.parser, &state);
    XML_SetElementHandler(state.parser, onStart, onEnd);
    XML_SetCharacterDataHandler(state.parser, onText);
    XML_SetEntityDeclHandler(state.parser, onEntityDecl);
    XML_SetStartDoctypeDeclHandler(state.parser, onDoctype);
    const XML_Status status = XML_Parse(state.parser, xml.data(), static_cast<int>(xml.size()), XML_TRUE);
    if (status != XML_STATUS_OK || !state.error.empty()) {
        if (state.error.empty()) {
            state.error = std::string(XML_ErrorString(XML_GetErrorCode(state.parser))) + " at line "
                          + std::to_string(XML_GetCurrentLineNumber(state.parser)) + ", column "
                          + std::to_string(XML_GetCurrentColumnNumber(state.parser));
        }
        result.error = std::move(state.error);
        XML_ParserFree(state.parser);
        return result;
    }
    XML_ParserFree(state.parser);
    if (!state.root) {
        result.error = "no root element";
        return result;
    }
    result.root = std::move(state.root);
    return result;
}

} // namespace strata::s3
