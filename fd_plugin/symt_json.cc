#include "symt_json.h"

#include <cmath>
#include <cstdlib>
#include <utility>

using namespace std;

namespace symt_json {
class Parser {
    const string &text;
    size_t pos = 0;
    int depth = 0;

    [[noreturn]] void fail(const string &message) const {
        throw Error("JSON syntax error at byte " + to_string(pos) + ": " + message);
    }

    void skip_whitespace() {
        while (pos < text.size() &&
               (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
            ++pos;
    }

    char peek() const {
        return pos < text.size() ? text[pos] : '\0';
    }

    void expect(char c) {
        if (peek() != c)
            fail(string("expected '") + c + "'");
        ++pos;
    }

    void expect_word(const char *word) {
        for (const char *c = word; *c; ++c) {
            if (peek() != *c)
                fail(string("expected '") + word + "'");
            ++pos;
        }
    }

    static void append_utf8(string &out, uint32_t code) {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    uint32_t parse_hex4() {
        if (pos + 4 > text.size())
            fail("truncated \\u escape");
        uint32_t code = 0;
        for (int i = 0; i < 4; ++i) {
            char c = text[pos++];
            code <<= 4;
            if (c >= '0' && c <= '9')
                code |= static_cast<uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                code |= static_cast<uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                code |= static_cast<uint32_t>(c - 'A' + 10);
            else
                fail("bad \\u escape");
        }
        return code;
    }

    string parse_string() {
        expect('"');
        string out;
        while (true) {
            if (pos >= text.size())
                fail("unterminated string");
            char c = text[pos++];
            if (c == '"')
                return out;
            if (static_cast<unsigned char>(c) < 0x20)
                fail("control character in string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos >= text.size())
                fail("unterminated escape");
            char e = text[pos++];
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                uint32_t code = parse_hex4();
                if (code >= 0xD800 && code < 0xDC00) {  // surrogate pair
                    expect('\\');
                    expect('u');
                    uint32_t low = parse_hex4();
                    if (low < 0xDC00 || low >= 0xE000)
                        fail("bad surrogate pair");
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                append_utf8(out, code);
                break;
            }
            default:
                fail("bad escape");
            }
        }
    }

    double parse_number() {
        size_t start = pos;
        if (peek() == '-')
            ++pos;
        if (peek() == '0') {
            ++pos;
        } else if (peek() >= '1' && peek() <= '9') {
            while (peek() >= '0' && peek() <= '9')
                ++pos;
        } else {
            fail("bad number");
        }
        if (peek() == '.') {
            ++pos;
            if (!(peek() >= '0' && peek() <= '9'))
                fail("bad number");
            while (peek() >= '0' && peek() <= '9')
                ++pos;
        }
        if (peek() == 'e' || peek() == 'E') {
            ++pos;
            if (peek() == '+' || peek() == '-')
                ++pos;
            if (!(peek() >= '0' && peek() <= '9'))
                fail("bad number");
            while (peek() >= '0' && peek() <= '9')
                ++pos;
        }
        return strtod(text.substr(start, pos - start).c_str(), nullptr);
    }

public:
    explicit Parser(const string &text) : text(text) {}

    Value parse_value() {
        if (++depth > 200)
            fail("nesting too deep");
        skip_whitespace();
        Value value;
        char c = peek();
        if (c == '{') {
            ++pos;
            value.type_ = Value::Type::Object;
            skip_whitespace();
            if (peek() == '}') {
                ++pos;
            } else {
                while (true) {
                    skip_whitespace();
                    string key = parse_string();
                    skip_whitespace();
                    expect(':');
                    value.object_[key] = parse_value();
                    skip_whitespace();
                    if (peek() == ',') {
                        ++pos;
                        continue;
                    }
                    expect('}');
                    break;
                }
            }
        } else if (c == '[') {
            ++pos;
            value.type_ = Value::Type::Array;
            skip_whitespace();
            if (peek() == ']') {
                ++pos;
            } else {
                while (true) {
                    value.array_.push_back(parse_value());
                    skip_whitespace();
                    if (peek() == ',') {
                        ++pos;
                        continue;
                    }
                    expect(']');
                    break;
                }
            }
        } else if (c == '"') {
            value.type_ = Value::Type::String;
            value.string_ = parse_string();
        } else if (c == 't') {
            expect_word("true");
            value.type_ = Value::Type::Bool;
            value.boolean_ = true;
        } else if (c == 'f') {
            expect_word("false");
            value.type_ = Value::Type::Bool;
        } else if (c == 'n') {
            expect_word("null");
        } else {
            value.type_ = Value::Type::Number;
            value.number_ = parse_number();
        }
        --depth;
        return value;
    }

    Value parse_document() {
        Value value = parse_value();
        skip_whitespace();
        if (pos != text.size())
            fail("trailing characters");
        return value;
    }
};

Value Value::parse(const string &text) {
    return Parser(text).parse_document();
}

static const char *type_name(Value::Type type) {
    switch (type) {
    case Value::Type::Null: return "null";
    case Value::Type::Bool: return "a boolean";
    case Value::Type::Number: return "a number";
    case Value::Type::String: return "a string";
    case Value::Type::Array: return "an array";
    case Value::Type::Object: return "an object";
    }
    return "?";
}

static Error type_error(const string &what, const char *expected, Value::Type actual) {
    return Error(what + " must be " + expected + ", not " + type_name(actual));
}

bool Value::as_bool(const string &what) const {
    if (type_ != Type::Bool)
        throw type_error(what, "a boolean", type_);
    return boolean_;
}

double Value::as_number(const string &what) const {
    if (type_ != Type::Number)
        throw type_error(what, "a number", type_);
    return number_;
}

int64_t Value::as_int(const string &what, int64_t min, int64_t max) const {
    double number = as_number(what);
    if (std::floor(number) != number || number < static_cast<double>(min) ||
        number > static_cast<double>(max))
        throw Error(what + " must be an integer in [" + to_string(min) + ", " + to_string(max) +
                    "], not " + to_string(number));
    return static_cast<int64_t>(number);
}

const string &Value::as_string(const string &what) const {
    if (type_ != Type::String)
        throw type_error(what, "a string", type_);
    return string_;
}

const vector<Value> &Value::as_array(const string &what) const {
    if (type_ != Type::Array)
        throw type_error(what, "an array", type_);
    return array_;
}

const map<string, Value> &Value::as_object(const string &what) const {
    if (type_ != Type::Object)
        throw type_error(what, "an object", type_);
    return object_;
}

const Value &Value::at(const string &key) const {
    const map<string, Value> &members = as_object("JSON document");
    auto it = members.find(key);
    if (it == members.end())
        throw Error("missing key '" + key + "'");
    return it->second;
}

bool Value::contains(const string &key) const {
    return type_ == Type::Object && object_.count(key) > 0;
}
}
