#ifndef SYMT_JSON_H
#define SYMT_JSON_H

/*
  A small JSON reader for symt's two metadata files (the model's symt.json and the task context
  written by the fast-downward wrapper). Neither Fast Downward nor libtorch ships a JSON library.
  Strict RFC 8259 syntax; numbers are kept as double (exact for the integers used here); \uXXXX
  escapes are decoded to UTF-8. Errors throw symt_json::Error with the byte offset.
*/

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace symt_json {
class Error : public std::runtime_error {
public:
    explicit Error(const std::string &message) : std::runtime_error(message) {}
};

class Value {
public:
    enum class Type {Null, Bool, Number, String, Array, Object};

    Value() = default;
    static Value parse(const std::string &text);

    Type type() const {return type_;}
    bool is_null() const {return type_ == Type::Null;}
    bool is_number() const {return type_ == Type::Number;}
    bool is_string() const {return type_ == Type::String;}
    bool is_array() const {return type_ == Type::Array;}
    bool is_object() const {return type_ == Type::Object;}

    // Typed access; `what` names the value in the error message.
    bool as_bool(const std::string &what) const;
    double as_number(const std::string &what) const;
    // A number that is an integer in [min, max].
    int64_t as_int(const std::string &what, int64_t min, int64_t max) const;
    const std::string &as_string(const std::string &what) const;
    const std::vector<Value> &as_array(const std::string &what) const;
    const std::map<std::string, Value> &as_object(const std::string &what) const;

    // Object member; throws if this is not an object or the key is missing.
    const Value &at(const std::string &key) const;
    bool contains(const std::string &key) const;

private:
    Type type_ = Type::Null;
    bool boolean_ = false;
    double number_ = 0.0;
    std::string string_;
    std::vector<Value> array_;
    std::map<std::string, Value> object_;

    friend class Parser;
};
}

#endif
