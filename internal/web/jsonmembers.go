package web

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// bodyMembers is what readJSON learns of a request's body by reading it
// against the type it decodes into: where each of its values is, by the
// path that names it, and the first member the type does not take. The
// paths are those of the JSON form of a sentinel (spec.FieldError):
// "operands[1].args", a member's name after a dot, an item's index in
// brackets; a member of a map is named by its key when the key reads as a
// field name (fieldName), by the map's path otherwise, which repeats
// nothing else the request sent (and so is what is in it).
type bodyMembers struct {
	values  []bodyValue
	unknown *unknownMember
	// twice is the first member given twice in an object of a type
	// (a struct or a map), which encoding/json would read as its last
	// value, ignoring the first: its path, or the object's when its name
	// does not read as a field name; nil when there is none.
	twice *string
}

// bodyValue is a value of the body at path: it lies after byte start (its
// member's name, or the bracket or comma before it) up to byte end.
type bodyValue struct {
	path       string
	start, end int64
}

// unknownMember is a member of the object at path in that its type does
// not take: name, or "" when its name does not read as a field name; the
// object's fields are fields.
type unknownMember struct {
	in, name string
	fields   []string
}

// path returns the path of the member, or of the object it is in when its
// name is not said.
func (u *unknownMember) path() string {
	if u.name == "" {
		return u.in
	}
	return joinPath(u.in, u.name)
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// readMembers reads body, one JSON value, against t, the type readJSON
// decodes it into. It reports false for a body that is not JSON, whose
// syntax error the decoder says.
func readMembers(body []byte, t reflect.Type) (*bodyMembers, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // a number out of float64's range is no error here
	m := &bodyMembers{}
	if !m.value(dec, t, "", true, 0) {
		return nil, false
	}
	return m, true
}

// value reads the value that comes next in dec, decoded into a value of
// type t, at path, after byte start; named says the path goes on into
// the value (it does not under a map's key that is not said). Under a
// value of no type (nil: what decodes it is not a struct, map or slice
// that encoding/json fills member by member, or it is a member no type
// takes), nothing is recorded.
func (m *bodyMembers) value(dec *json.Decoder, t reflect.Type, path string, named bool, start int64) bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		reflect.PointerTo(t).Implements(textUnmarshaler)) {
		t = nil
	}
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	switch tok {
	case json.Delim('{'):
		var fields []string
		obj := t // the type of the object's members, by t's kind
		switch {
		case t == nil:
		case t.Kind() == reflect.Struct:
			fields = jsonFields(t)
		case t.Kind() != reflect.Map:
			obj = nil
		}
		var seen map[string]bool
		for dec.More() {
			k, err := dec.Token()
			key, ok := k.(string)
			if err != nil || !ok {
				return false
			}
			var member reflect.Type
			memberPath, memberNamed := path, named && fieldName.MatchString(key)
			if memberNamed {
				memberPath = joinPath(path, key)
			}
			if obj != nil {
				if seen[key] && m.twice == nil {
					m.twice = &memberPath
				}
				if seen == nil {
					seen = map[string]bool{}
				}
				seen[key] = true
			}
			switch {
			case obj == nil:
			case obj.Kind() == reflect.Map:
				member = obj.Elem()
			case slices.Contains(fields, key):
				member = fieldType(obj, key)
			case m.unknown == nil:
				// encoding/json would take a member whose name is a
				// field's in another case ("timezone" for timeZone): it
				// is refused too, as any name not spelt as a field's.
				m.unknown = &unknownMember{in: path, fields: fields}
				if memberNamed {
					m.unknown.name = key
				}
			}
			if !m.value(dec, member, memberPath, memberNamed, dec.InputOffset()) {
				return false
			}
		}
	case json.Delim('['):
		var item reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			item = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			itemPath := path
			if named {
				itemPath += "[" + strconv.Itoa(i) + "]"
			}
			if !m.value(dec, item, itemPath, named, dec.InputOffset()) {
				return false
			}
		}
	}
	if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return false
		}
	}
	if t != nil {
		m.values = append(m.values, bodyValue{path: path, start: start, end: dec.InputOffset()})
	}
	return true
}

// at returns the path of the innermost value of the body that holds byte
// off, at which encoding/json's UnmarshalTypeError is (a literal's end, or
// the byte after the bracket that opens an array or object): "" for the
// body itself.
func (m *bodyMembers) at(off int64) string {
	path, from := "", int64(-1)
	for _, v := range m.values {
		if v.start < off && off <= v.end && v.start > from {
			path, from = v.path, v.start
		}
	}
	return path
}

// fieldType returns the type of the field of struct t whose member is
// named name (jsonFields), those of its embedded structs among them.
func fieldType(t reflect.Type, name string) reflect.Type {
	for _, f := range reflect.VisibleFields(t) {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && !(f.Anonymous && tag == "") && (tag == name || tag == "" && f.Name == name) {
			return f.Type
		}
	}
	return nil
}

// joinPath returns the path of the member name of the object at path.
func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
