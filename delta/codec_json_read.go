package delta

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The structure of the JSON form, read token by token for jsonDecoder:
// objects, arrays, scalars, and the errors that name where the JSON
// is wrong (a line and column, and the path of the field at fault).

// object reads an object (or null) at path, calling field with each key and
// the key's path; field must read the key's value.
func (j *jsonDecoder) object(path string, field func(key, path string) error) error {
	t, err := j.value()
	if err != nil {
		return err
	}
	return j.objectFrom(t, path, field)
}

// objectFrom is object once its first token t is read.
func (j *jsonDecoder) objectFrom(t jsonToken, path string, field func(key, path string) error) error {
	switch t.kind {
	case tokenNull:
		return nil
	case tokenBeginObject:
	default:
		return j.typeError(t, path, "an object")
	}
	// The keys read, to refuse one given twice: JSON leaves its meaning
	// open, and encoding/json would take the last.
	var small [8]string
	seen := small[:0]
	var many map[string]struct{}
	for keys := 0; ; keys++ {
		key, end, err := j.key(keys)
		if err != nil || end {
			return err
		}
		p := fieldPath(path, key)
		if many == nil && slices.Contains(seen, key) {
			return j.errorAt(j.keyAt, p, "given twice")
		}
		if many != nil {
			if _, dup := many[key]; dup {
				return j.errorAt(j.keyAt, p, "given twice")
			}
			many[key] = struct{}{}
		} else if seen = append(seen, key); len(seen) > len(small) {
			many = make(map[string]struct{}, 2*len(seen))
			for _, k := range seen {
				many[k] = struct{}{}
			}
		}
		if err := field(key, p); err != nil {
			return err
		}
	}
}

// key reads the next key of an object of which keys were read, and its
// colon, or the object's end.
func (j *jsonDecoder) key(keys int) (key string, end bool, err error) {
	t, err := j.lex.next()
	if err != nil {
		return "", false, j.syntax(err)
	}
	j.keyAt = t.at
	if t.kind == tokenEndObject {
		return "", true, nil
	}
	if keys > 0 {
		if t.kind != tokenComma {
			return "", false, j.unexpected(t, "',' or '}'")
		}
		if t, err = j.lex.next(); err != nil {
			return "", false, j.syntax(err)
		}
	}
	if t.kind != tokenString {
		return "", false, j.unexpected(t, "a string key")
	}
	j.keyAt = t.at
	colon, err := j.lex.next()
	if err != nil {
		return "", false, j.syntax(err)
	}
	if colon.kind != tokenColon {
		return "", false, j.unexpected(colon, "':'")
	}
	return t.text, false, nil
}

// array reads an array (or null) at path, calling elem with each index, the
// element's path and its first token; elem must read the rest of the
// element.
func (j *jsonDecoder) array(path string, elem func(i int, path string, first jsonToken) error) error {
	t, err := j.value()
	if err != nil {
		return err
	}
	return j.arrayFrom(t, path, elem)
}

// arrayFrom is array once its first token t is read.
func (j *jsonDecoder) arrayFrom(t jsonToken, path string, elem func(i int, path string, first jsonToken) error) error {
	switch t.kind {
	case tokenNull:
		return nil
	case tokenBeginArray:
	default:
		return j.typeError(t, path, "an array")
	}
	for i := 0; ; i++ {
		t, err := j.lex.next()
		if err != nil {
			return j.syntax(err)
		}
		if t.kind == tokenEndArray {
			return nil
		}
		if i > 0 {
			if t.kind != tokenComma {
				return j.unexpected(t, "',' or ']'")
			}
			if t, err = j.lex.next(); err != nil {
				return j.syntax(err)
			}
		}
		if !t.kind.isValue() {
			return j.unexpected(t, "a value")
		}
		if err := elem(i, path+"["+strconv.Itoa(i)+"]", t); err != nil {
			return err
		}
	}
}

// nullable reads a value at path and passes it to scalar, unless it is
// null.
func (j *jsonDecoder) nullable(path string, scalar func(jsonToken) error) (null bool, err error) {
	t, err := j.value()
	if err != nil {
		return false, err
	}
	if t.kind == tokenNull {
		return true, nil
	}
	return false, scalar(t)
}

// str reads a string (null leaves dst as it is) at path.
func (j *jsonDecoder) str(path string, dst *string) error {
	_, err := j.nullable(path, func(t jsonToken) error { return j.strToken(path, t, dst) })
	return err
}

// boolean reads a boolean (null leaves dst as it is) at path.
func (j *jsonDecoder) boolean(path string, dst *bool) error {
	_, err := j.nullable(path, func(t jsonToken) error {
		if t.kind != tokenTrue && t.kind != tokenFalse {
			return j.typeError(t, path, "a bool")
		}
		*dst = t.kind == tokenTrue
		return nil
	})
	return err
}

func (j *jsonDecoder) strToken(path string, t jsonToken, dst *string) error {
	if t.kind != tokenString {
		return j.typeError(t, path, "a string")
	}
	*dst = t.text
	return nil
}

func (j *jsonDecoder) uintToken(path string, t jsonToken, dst *uint64) error {
	x, err := strconv.ParseUint(t.text, 10, 64)
	if t.kind != tokenNumber || err != nil {
		return j.typeError(t, path, "a whole number from 0 to 18446744073709551615")
	}
	*dst = x
	return nil
}

func (j *jsonDecoder) intToken(path string, t jsonToken, dst *int) error {
	x, err := strconv.ParseInt(t.text, 10, 64)
	if t.kind != tokenNumber || err != nil || x < math.MinInt || x > math.MaxInt {
		return j.typeError(t, path, "a whole number")
	}
	*dst = int(x)
	return nil
}

// value reads the token that starts a value: anything else is an error.
// A value that is an object or an array is left for the caller to read
// on.
func (j *jsonDecoder) value() (jsonToken, error) {
	t, err := j.lex.next()
	if err != nil {
		return t, j.syntax(err)
	}
	if !t.kind.isValue() {
		return t, j.unexpected(t, "a value")
	}
	return t, nil
}

// syntax turns the lexer's error into a *DecodeError.
func (j *jsonDecoder) syntax(err error) error {
	se := err.(*syntaxError)
	line, col := lineCol(j.lex.data, j.lex.marks, se.at)
	return &DecodeError{Line: line, Column: col, Msg: se.msg, Err: ErrMalformed}
}

// unexpected reports a token out of place.
func (j *jsonDecoder) unexpected(t jsonToken, want string) error {
	if t.kind == tokenEnd {
		return j.syntax(&syntaxError{t.at, "unexpected end of JSON input"})
	}
	return j.syntax(&syntaxError{t.at, fmt.Sprintf("unexpected %s, want %s", t.kind, want)})
}

// errorAt returns an error at path, placed at byte offset at.
func (j *jsonDecoder) errorAt(at int, path, format string, args ...any) error {
	line, col := lineCol(j.lex.data, j.lex.marks, at)
	return &DecodeError{Line: line, Column: col, Path: path, Msg: fmt.Sprintf(format, args...), Err: ErrMalformed}
}

// typeError reports a value of the wrong type at path.
func (j *jsonDecoder) typeError(t jsonToken, path, want string) error {
	got := t.kind.String()
	if t.kind == tokenNumber {
		got += " " + clip(t.text)
	}
	return j.errorAt(t.at, path, "a JSON %s where %s is wanted", got, want)
}

// unknown reports a field the form does not have, key of the object at
// path.
func (j *jsonDecoder) unknown(path, key string) error {
	if path != "" {
		path += "."
	}
	return j.errorAt(j.keyAt, path+strconv.Quote(key), "unknown field")
}

// fieldPath returns the path of field key of the object at path:
// path.key, or path["key"] for a key that is not a plain name (a
// namespace prefix "", "a:b").
func fieldPath(path, key string) string {
	plain := key != ""
	for _, c := range key {
		plain = plain && (c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z')
	}
	switch {
	case !plain:
		return path + "[" + strconv.Quote(key) + "]"
	case path == "":
		return key
	}
	return path + "." + key
}

// lineCol returns the 1-based line and column of byte off of data; the
// column counts characters (runes), as an editor shows them, but for the
// byte-order marks at the offsets marks (ascending) that the lexer skipped
// at the start of the input and between deltas: an editor does not show
// the mark at the start of each file put end to end.
func lineCol(data []byte, marks []int, off int) (int, int) {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	bol := bytes.LastIndexByte(data[:off], '\n') + 1
	col := 1 + utf8.RuneCount(data[bol:off]) - marksIn(marks, bol, off)
	return line, col
}

// marksIn counts the offsets of marks (ascending) in [from, to).
func marksIn(marks []int, from, to int) int {
	i, _ := slices.BinarySearch(marks, from)
	j, _ := slices.BinarySearch(marks, to)
	return max(j-i, 0)
}

// lineCounter gives the places of ascending offsets of one input in one
// pass over it, where lineCol counts from the start for each: a delta of
// a million operations on one line is placed in the time of reading it.
type lineCounter struct {
	off, line, col int // the last offset placed, and its place
}

// place returns the place of byte off of data, off not before the last
// one placed, its column counted as lineCol counts it.
func (c *lineCounter) place(data []byte, marks []int, off int) place {
	if c.line == 0 {
		c.line, c.col = 1, 1
	}
	off = min(max(off, 0), len(data))
	if off < c.off {
		return newPlace(lineCol(data, marks, off))
	}
	seg := data[c.off:off]
	if k := bytes.LastIndexByte(seg, '\n'); k >= 0 {
		c.line += 1 + bytes.Count(seg[:k], []byte{'\n'})
		c.col = 1 + utf8.RuneCount(seg[k+1:]) - marksIn(marks, c.off+k+1, off)
	} else {
		c.col += utf8.RuneCount(seg) - marksIn(marks, c.off, off)
	}
	c.off = off
	return newPlace(c.line, c.col)
}
