package delta

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
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
// the same tokens, strings decoded the same way.
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
	if err != nil || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("lexer on %q:\n got %v, %v\nwant %v", in, got, err, want)
	}
}

var lexerSeeds = []string{
	`{"a":[1,-2,3.5e10,0,-0.0e-1,true,false,null,{}]}`,
	`"plain"`, `"\u00e9t\u00C9"`, `"\ud83d\ude00 smile"`, `"\ud83d lone"`, `"\ude00 low first"`,
	`"\ud83d\u0041 high then not low"`, `"esc \" \\ \/ \b \f \n \r \t"`, "\"bad \xff utf-8\"",
	"\"\xed\xa0\x80 encoded surrogate\"", `"a\u0000b"`, ` [ "x" , { "k" : null } ] `,
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
