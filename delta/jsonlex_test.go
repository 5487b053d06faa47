package delta

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vigil-web/vigil/xmltext"
)

// lexerTokens returns the tokens of the lexer in the form tokensOf gives
// encoding/json's, without the colons and commas that Token leaves out.
func lexerTokens(in string) ([]string, error) {
	l := jsonLexer{data: []byte(in)}
	var out []string
	for {
		t, err := l.next()
		if err != nil {
			return out, err
		}
		switch t.kind {
		case tokenEnd:
			return out, nil
		case tokenColon, tokenComma:
		case tokenBeginObject, tokenEndObject, tokenBeginArray, tokenEndArray:
			out = append(out, in[t.at:t.at+1])
		case tokenString:
			out = append(out, fmt.Sprintf("%q", t.text))
		case tokenNumber:
			out = append(out, "n"+t.text)
		case tokenTrue, tokenFalse:
			out = append(out, fmt.Sprint(t.kind == tokenTrue))
		case tokenNull:
			out = append(out, "null")
		}
	}
}

// tokensOf returns encoding/json's tokens of in.
func tokensOf(in string) ([]string, error) {
	dec := json.NewDecoder(strings.NewReader(in))
	dec.UseNumber()
	var out []string
	for {
		t, err := dec.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		switch v := t.(type) {
		case json.Delim:
			out = append(out, v.String())
		case string:
			out = append(out, fmt.Sprintf("%q", v))
		case json.Number:
			out = append(out, "n"+string(v))
		case nil:
			out = append(out, "null")
		default:
			out = append(out, fmt.Sprint(v))
		}
	}
}

// checkLexer checks that the lexer reads valid JSON as encoding/json does:
// the same tokens, strings decoded the same way; but for strings that hold
// a character XML cannot (which encoding/json keeps) or invalid UTF-8 or a
// lone surrogate (which it reads as U+FFFD), which the lexer refuses.
func checkLexer(t *testing.T, in string) {
	if !json.Valid([]byte(in)) {
		lexerTokens(in) // must not panic
		return
	}
	want, err := tokensOf(in)
	if err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	got, err := lexerTokens(in)
	if _, ok := err.(*syntaxError); ok && refusable(want) {
		return
	}
	if err != nil || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("lexer on %q:\n got %v, %v\nwant %v", in, got, err, want)
	}
}

// refusable reports whether encoding/json's tokens hold a string the lexer
// may refuse: one with a character XML cannot hold, or U+FFFD, which may
// stand for invalid UTF-8 or a lone surrogate.
func refusable(tokens []string) bool {
	for _, tok := range tokens {
		s, err := strconv.Unquote(tok)
		if err != nil {
			continue // not a string
		}
		for _, r := range s {
			if !xmltext.IsChar(r) || r == utf8.RuneError {
				return true
			}
		}
	}
	return false
}

var lexerSeeds = []string{
	`{"a":[1,-2,3.5e10,0,-0.0e-1,true,false,null,{}]}`,
	`"plain"`, `"\u00e9t\u00C9"`, `"\ud83d\ude00 smile"`, `"\ud83d lone"`, `"\ude00 low first"`,
	`"\ud83d\u0041 high then not low"`, `"esc \" \\ \/ \b \f \n \r \t"`, "\"bad \xff utf-8\"",
	"\"\xed\xa0\x80 encoded surrogate\"", `"a\u0000b"`, ` [ "x" , { "k" : null } ] `,
	`"\u0001"`, `"\ud800"`, `"\uffff"`, `"\uFFFE"`, "\"\xef\xbf\xbf raw U+FFFF\"", `"\u001f"`,
	`"\uFFFD kept"`, "\"\xef\xbf\xbd raw U+FFFD, \xef\xbc\x81 fullwidth\"", `"\u0009\u000a\u000D\u0085\ufdd0"`,
}

func TestJSONLexerAgrees(t *testing.T) {
	for _, in := range lexerSeeds {
		checkLexer(t, in)
	}
	// Errors carry an offset: each input is wrong at byte 5.
	for _, in := range []string{`[1, x]`, `[1, "a` + "\x01" + `"]`, `[1, 1.]`, `[1, 2e]`, `[1, "\q"]`, `[1, tru]`, `[1, -]`} {
		l := jsonLexer{data: []byte(in)}
		var err error
		for err == nil {
			var tok jsonToken
			if tok, err = l.next(); tok.kind == tokenEnd && err == nil {
				break
			}
		}
		se, ok := err.(*syntaxError)
		if !ok || se.at < 4 || se.at > 6 {
			t.Errorf("lexer on %q: %v, want a syntax error near byte 5", in, err)
		}
	}
}

// FuzzJSONLexer checks the lexer against encoding/json on any valid JSON.
func FuzzJSONLexer(f *testing.F) {
	for _, s := range lexerSeeds {
		f.Add(s)
	}
	f.Fuzz(checkLexer)
}

// TestDecodeJSONRefusesNonXMLCharacters refuses, with their line and
// column, the characters DecodeXML refuses in the XML form (a delta must
// read the same in both forms), where encoding/json would read them or
// U+FFFD in their place.
func TestDecodeJSONRefusesNonXMLCharacters(t *testing.T) {
	for _, tc := range []struct{ value, msg string }{
		{`a\u0001b`, `line 2, column 45: character U+0001 (\u0001) is not allowed`},
		{`a\ud800b`, `line 2, column 45: lone surrogate \ud800`},
		{`a\udc00\ud800b`, `line 2, column 45: lone surrogate \udc00`},
		{`a\uffff`, `line 2, column 45: character U+FFFF (\uffff) is not allowed`},
		{`a\uFFFE`, `line 2, column 45: character U+FFFE (\uFFFE) is not allowed`},
		{`a\u0000`, `line 2, column 45: character U+0000 (\u0000) is not allowed`},
		{`a\b`, `line 2, column 45: character U+0008 (\b) is not allowed`},
		{`a\f`, `line 2, column 45: character U+000C (\f) is not allowed`},
		{"a\xef\xbf\xbf", `line 2, column 45: character U+FFFF is not allowed`},
		{"a\xff", `line 2, column 45: invalid UTF-8 (byte 0xff) in a string`},
		{"a\xed\xa0\x80", `line 2, column 45: invalid UTF-8 (byte 0xed) in a string`},
	} {
		in := "{\"ops\":[\n{\"op\":\"au\",\"xid\":14,\"a\":\"a\",\"ov\":\"1\",\"nv\":\"" + tc.value + "\"}]}"
		_, err := DecodeJSON(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), tc.msg) || !errors.Is(err, ErrMalformed) {
			t.Errorf("%q: err = %v, want %q", tc.value, err, tc.msg)
		}
	}
	// What XML holds, JSON does: tab, newline, carriage return, C1
	// controls, other non-characters, U+FFFD itself, pairs.
	in := `{"ops":[{"op":"au","xid":14,"a":"a","ov":"1","nv":"\t\n\r\u0085\ufdd0\ufffd\ud83d\ude00` + "\xef\xbf\xbd\xef\xbc\x81" + `"}]}`
	d, err := DecodeJSON(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Ops[0].NewValue; got != "\t\n\r\u0085\ufdd0\ufffd\U0001F600\ufffd\uff01" {
		t.Errorf("value %q", got)
	}
}
