package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// TestReadJSONTypeErrors: a body of the wrong JSON type is refused in the
// terms of JSON, naming the member; the message named Go types instead
// ("cannot unmarshal array into Go value of type struct { web.sentinelInput;
// Replacing int64 ... }").
func TestReadJSONTypeErrors(t *testing.T) {
	s, u := newTestServer(t)
	for _, tc := range []struct {
		path, body string
		handle     apiFunc
		want       string
	}{
		{"/api/v1/sentinels/check", `[]`, s.handleSentinelCheck, "invalid JSON body: want an object, found an array"},
		{"/api/v1/sentinels/check", `"x"`, s.handleSentinelCheck, "invalid JSON body: want an object, found a string"},
		{"/api/v1/sentinels/check", `{"source":5}`, s.handleSentinelCheck, "invalid JSON body: source: want a string, found a number"},
		{"/api/v1/sentinels/check", `{"source":"x","replacing":"y"}`, s.handleSentinelCheck, "invalid JSON body: replacing: want an integer, found a string"},
		{"/api/v1/sentinels", `{"source":true}`, s.handleSentinelCreate, "invalid JSON body: source: want a string, found true or false"},
		{"/api/v1/tokens", `[1]`, s.handleTokenCreate, "invalid JSON body: want an object, found an array"},
		{"/api/v1/tokens", `{"name":{}}`, s.handleTokenCreate, "invalid JSON body: name: want a string, found an object"},
		// An empty body said "invalid JSON body: EOF".
		{"/api/v1/sentinels", ``, s.handleSentinelCreate, "invalid JSON body: it is empty: want an object"},
		{"/api/v1/sentinels/check", " \n", s.handleSentinelCheck, "invalid JSON body: it is empty: want an object"},
	} {
		req := httptest.NewRequest("POST", tc.path, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		err := tc.handle(rec, req, u)
		if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != tc.want {
			t.Errorf("POST %s %s: %v (%s), want %q", tc.path, tc.body, err, vigil.ErrorCode(err), tc.want)
		}
		if strings.Contains(vigil.ErrorMessage(err), "Go ") {
			t.Errorf("POST %s %s: the message names Go types: %v", tc.path, tc.body, err)
		}
		if rec.Code != http.StatusOK || rec.Body.Len() != 0 {
			t.Errorf("POST %s %s: the handler wrote %d %q before its error", tc.path, tc.body, rec.Code, rec.Body)
		}
	}
}

// TestReadJSONNestedFieldPath: a member of the wrong type inside an
// object is named by its full path ("monitor.args"), not by its last name
// alone ("args"), an item of an array by its index and a member of a map
// by its name, as the JSON form of a sentinel names them
// ("operands[0].args", spec.FieldError), and an embedded struct's Go name
// is no part of it; and so is a member the body does not have, with the
// fields of the object it is in. The path is the diagnostic's field too.
func TestReadJSONNestedFieldPath(t *testing.T) {
	type base struct {
		Name string `json:"name"`
	}
	type args struct {
		Args []string `json:"args"`
	}
	type body struct {
		base
		Monitor  args            `json:"monitor"`
		Operands []args          `json:"operands"`
		ByName   map[string]args `json:"byName"`
		Notify   *struct {
			args
			Every int `json:"every"`
		} `json:"notify"`
	}
	tests := map[string]struct{ body, field, want string }{
		"nested":            {`{"monitor":{"args":"x"}}`, "monitor.args", "invalid JSON body: monitor.args: want an array, found a string"},
		"nested element":    {`{"monitor":{"args":["a", 3]}}`, "monitor.args[1]", "invalid JSON body: monitor.args[1]: want a string, found a number"},
		"object itself":     {`{"monitor":3}`, "monitor", "invalid JSON body: monitor: want an object, found a number"},
		"embedded":          {`{"name":3}`, "name", "invalid JSON body: name: want a string, found a number"},
		"in an array":       {`{"operands":[{"args":[]}, {"args":{}}]}`, "operands[1].args", "invalid JSON body: operands[1].args: want an array, found an object"},
		"in a map":          {`{"byName":{"k":{"args":1}}}`, "byName.k.args", "invalid JSON body: byName.k.args: want an array, found a number"},
		"map key unnamed":   {`{"byName":{"Call 0800-SCAM":{"args":1}}}`, "byName", "invalid JSON body: byName: want an array, found a number"},
		"pointer, embedded": {`{"notify":{"args":true}}`, "notify.args", "invalid JSON body: notify.args: want an array, found true or false"},
		"pointer":           {`{"notify":{"every":"x"}}`, "notify.every", "invalid JSON body: notify.every: want an integer, found a string"},
		"unknown, nested":   {`{"operands":[{"args":[]},{"arg":[]}]}`, "operands[1].arg", `invalid JSON body: unknown field "operands[1].arg": the fields of operands[1] are args`},
		"inexact, nested":   {`{"monitor":{"Args":[]}}`, "monitor.Args", `invalid JSON body: unknown field "monitor.Args": the fields of monitor are args`},
		"unknown, in a map": {`{"byName":{"k":{"every":1}}}`, "byName.k.every", `invalid JSON body: unknown field "byName.k.every": the fields of byName.k are args`},
		"unnamed, nested":   {`{"notify":{"<b>":1}}`, "notify", "invalid JSON body: a field notify does not take: its fields are args, every"},
	}
	for name, tc := range tests {
		req := jsonRequest("POST", "/api/v1/x", tc.body)
		var v body
		err := readJSON(req, &v)
		if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != tc.want {
			t.Errorf("%s: %s: %v, want %q", name, tc.body, err, tc.want)
		}
		var de *diagnosticsError
		if !errors.As(err, &de) || len(de.Diagnostics) != 1 || de.Diagnostics[0].Field != tc.field {
			t.Errorf("%s: %s: diagnostics %+v, want one on %s", name, tc.body, de, tc.field)
		}
	}
}

// TestSentinelJSONArgsPath: a problem of a change type's values in the
// JSON form of a sentinel is named at its args, in the error's message and
// its diagnostic's field: "monitor.args", where it was "monitor"; and
// args that are not an array of strings are said to be so, without "needs
// at least one word" at "monitor" before it.
func TestSentinelJSONArgsPath(t *testing.T) {
	s, u := newTestServer(t)
	tests := map[string]struct{ monitor, field, msg string }{
		"empty":        {`{"kind":"keywords","args":[]}`, "monitor.args", "keywords needs at least one word"},
		"missing":      {`{"kind":"phrase"}`, "monitor.args", "phrase needs at least one phrase"},
		"not an array": {`{"kind":"keywords","args":"price"}`, "monitor.args", "want an array, found a string"},
		"not a string": {`{"kind":"keywords","args":[3]}`, "monitor.args[0]", "want a string, found a number"},
		"nested":       {`{"and":[{"kind":"all links"},{"not":{"kind":"keywords","args":[]}}]}`, "monitor.and[1].not.args", "keywords needs at least one word"},
	}
	for name, tc := range tests {
		body := `{"sentinel":{"name":"a","using":{"url":"http://a.example/"},"fetch":{"interval":"1 hour"},"monitor":` + tc.monitor + `}}`
		req := httptest.NewRequest("POST", "/api/v1/sentinels", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		err := s.handleSentinelCreate(httptest.NewRecorder(), req, u)
		want := tc.field + ": " + tc.msg
		if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != want {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
		var de *diagnosticsError
		if !errors.As(err, &de) || len(de.Diagnostics) != 1 || de.Diagnostics[0].Field != tc.field || de.Diagnostics[0].Message != tc.msg {
			t.Errorf("%s: diagnostics %+v, want one, %s at %s", name, de, tc.msg, tc.field)
		}
	}
}

// TestReadJSONUnknownField: a body with a member the endpoint does not
// take is refused with the endpoint's own fields (those of an embedded
// struct in their place). The member is named when it reads as a field
// name (a misspelt "sourc" was not named, so the answer did not say which
// member was refused); anything else, which the request sent ("json:
// unknown field \"Call 0800-SCAM\""), is not repeated.
func TestReadJSONUnknownField(t *testing.T) {
	s, u := newTestServer(t)
	for _, tc := range []struct {
		path, body string
		handle     apiFunc
		want       string
	}{
		{"/api/v1/tokens", `{"name":"a","Call 0800-SCAM":1}`, s.handleTokenCreate,
			"invalid JSON body: a field this endpoint does not take: its fields are name, expiresIn"},
		{"/api/v1/sentinels/check", `{"source":"x","<b>pwned</b>":"y"}`, s.handleSentinelCheck,
			"invalid JSON body: a field this endpoint does not take: its fields are source, sentinel, replacing"},
		{"/api/v1/sentinels", `{"sources":"x"}`, s.handleSentinelCreate,
			`invalid JSON body: unknown field "sources": its fields are source, sentinel`},
		{"/api/v1/sentinels", `{"sourc":"x"}`, s.handleSentinelCreate,
			`invalid JSON body: unknown field "sourc": its fields are source, sentinel`},
		{"/api/v1/sentinels/check", `{"source":"x","replacing_id":1}`, s.handleSentinelCheck,
			`invalid JSON body: unknown field "replacing_id": its fields are source, sentinel, replacing`},
		{"/api/v1/tokens", `{"name":"a","expires-in":"1h"}`, s.handleTokenCreate,
			`invalid JSON body: unknown field "expires-in": its fields are name, expiresIn`},
		{"/api/v1/tokens", `{"name":"a","\u0000":1}`, s.handleTokenCreate,
			"invalid JSON body: a field this endpoint does not take: its fields are name, expiresIn"},
		{"/api/v1/tokens", `{"name":"a","` + strings.Repeat("a", 65) + `":1}`, s.handleTokenCreate,
			"invalid JSON body: a field this endpoint does not take: its fields are name, expiresIn"},
	} {
		req := httptest.NewRequest("POST", tc.path, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		err := tc.handle(httptest.NewRecorder(), req, u)
		if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != tc.want {
			t.Errorf("POST %s %s: %v (%s), want %q", tc.path, tc.body, err, vigil.ErrorCode(err), tc.want)
		}
	}
}

// TestReadJSONFieldNamesExact: a member is a field only when spelt as the
// field is: PATCH /api/v1/me took {"timezone": "UTC"} for timeZone (as
// encoding/json matches names in any case) while it refused other
// misspellings; it is refused, naming it, and the user's zone is unchanged.
func TestReadJSONFieldNamesExact(t *testing.T) {
	s, u := newTestServer(t)
	for _, tc := range []struct {
		method, path, body string
		handle             apiFunc
		want               string
	}{
		{"PATCH", "/api/v1/me", `{"timezone":"UTC"}`, s.handleMeUpdate,
			`invalid JSON body: unknown field "timezone": its fields are timeZone`},
		{"PATCH", "/api/v1/me", `{"TimeZone":"UTC"}`, s.handleMeUpdate,
			`invalid JSON body: unknown field "TimeZone": its fields are timeZone`},
		{"POST", "/api/v1/tokens", `{"NAME":"a"}`, s.handleTokenCreate,
			`invalid JSON body: unknown field "NAME": its fields are name, expiresIn`},
		{"POST", "/api/v1/tokens", `{"name":"a","expiresin":"1h"}`, s.handleTokenCreate,
			`invalid JSON body: unknown field "expiresin": its fields are name, expiresIn`},
		{"POST", "/api/v1/sentinels/check", `{"Source":"x"}`, s.handleSentinelCheck,
			`invalid JSON body: unknown field "Source": its fields are source, sentinel, replacing`},
		{"POST", "/api/v1/tokens", `{"name":"a","Expires In":1}`, s.handleTokenCreate,
			"invalid JSON body: a field this endpoint does not take: its fields are name, expiresIn"},
		// Syntax errors are still said first.
		{"POST", "/api/v1/tokens", `{"NAME":"a",}`, s.handleTokenCreate,
			"invalid JSON body: "},
	} {
		req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		err := tc.handle(httptest.NewRecorder(), req, u)
		if vigil.ErrorCode(err) != vigil.EINVALID || !strings.HasPrefix(vigil.ErrorMessage(err), tc.want) ||
			(strings.HasSuffix(tc.body, ",}") && strings.Contains(vigil.ErrorMessage(err), "field")) {
			t.Errorf("%s %s %s: %v (%s), want %q", tc.method, tc.path, tc.body, err, vigil.ErrorCode(err), tc.want)
		}
	}
	if u.TimeZone != "" {
		t.Errorf("time zone set to %q", u.TimeZone)
	}
	// The field spelt as it is still sets it.
	req := jsonRequest("PATCH", "/api/v1/me", `{"timeZone":"Asia/Tokyo"}`)
	if err := s.handleMeUpdate(httptest.NewRecorder(), req, u); err != nil || u.TimeZone != "Asia/Tokyo" {
		t.Errorf("timeZone: %v, %q", err, u.TimeZone)
	}
}

// TestTimeParamPlus: a time whose offset's "+" was sent unescaped reads
// "10:25:00 02:00"; the error says how to write it, not only that it is
// no RFC 3339 time (and not what was sent: see TestErrorsDoNotRepeatInput).
func TestTimeParamPlus(t *testing.T) {
	r := httptest.NewRequest("GET", "/api/v1/changes?since=2026-11-29T10:25:00+02:00", nil)
	_, err := timeParam(r, "since", time.UTC)
	want := `since must be an RFC 3339 time: write the offset's + as %2B in a URL, where a + is a space`
	if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != want {
		t.Errorf("%v, want %q", err, want)
	}
	r = httptest.NewRequest("GET", "/api/v1/changes?since=2026-11-29T10:25:00%2B02:00", nil)
	if got, err := timeParam(r, "since", time.UTC); err != nil || !got.Equal(time.Date(2026, 11, 29, 8, 25, 0, 0, time.UTC)) {
		t.Errorf("%%2B: %v, %v", got, err)
	}
}

// TestReadJSONSyntaxErrors: a body that is not JSON is refused saying
// where, by line and column (in characters, from 1) and byte (from 0),
// and what was found there; the message quoted one byte and said
// nothing of where ("invalid character 'Ã' looking for beginning of
// object key string" of an é).
func TestReadJSONSyntaxErrors(t *testing.T) {
	s, u := newTestServer(t)
	for _, tc := range []struct {
		name, body, want string
	}{
		{"comma missing", `{"name":"a" "expiresIn":"1h"}`,
			`invalid JSON body: line 1, column 13 (byte 12): invalid character '"' after object key:value pair`},
		{"lines", "{\n  \"name\": \"a\",\n  \"expiresIn\": 1h\n}",
			`invalid JSON body: line 3, column 17 (byte 33): invalid character 'h' after object key:value pair`},
		{"trailing comma", `{"name":"a",}`,
			`invalid JSON body: line 1, column 13 (byte 12): invalid character '}' looking for beginning of object key string`},
		{"unquoted key", `{name:"a"}`,
			`invalid JSON body: line 1, column 2 (byte 1): invalid character 'n' looking for beginning of object key string`},
		{"not UTF-8 byte by byte", `{"name":"a",é:1}`,
			`invalid JSON body: line 1, column 13 (byte 12): invalid character 'é' looking for beginning of object key string`},
		{"columns in characters", `{"name":"ééé" x}`,
			`invalid JSON body: line 1, column 15 (byte 17): invalid character 'x' after object key:value pair`},
		{"control character", "{\"name\":\"a\x01\"}",
			`invalid JSON body: line 1, column 11 (byte 10): invalid character U+0001 in string literal`},
		{"CRLF", "{\r\n\"name\" \"a\"}",
			`invalid JSON body: line 2, column 8 (byte 10): invalid character '"' after object key`},
		{"bad escape", `{"name":"a\q"}`,
			`invalid JSON body: line 1, column 12 (byte 11): invalid character 'q' in string escape code`},
		{"bad literal", `{"name":nul}`,
			`invalid JSON body: line 1, column 12 (byte 11): invalid character '}' in literal null (expecting 'l')`},
		{"cut short", `{"name":"a"`,
			`invalid JSON body: line 1, column 12 (byte 11): the body ends before its value does`},
		{"cut short on a new line", "{\"name\":\n",
			`invalid JSON body: line 2, column 1 (byte 9): the body ends before its value does`},
		{"more after", `{"name":"a"} x`,
			`invalid JSON body: line 1, column 14 (byte 13): more after the object`},
		{"second object", "{\"name\":\"a\"}\n{}",
			`invalid JSON body: line 2, column 1 (byte 13): more after the object`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/api/v1/tokens", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			err := s.handleTokenCreate(httptest.NewRecorder(), req, u)
			if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != tc.want {
				t.Errorf("%q:\n got %v (%s)\nwant %s", tc.body, vigil.ErrorMessage(err), vigil.ErrorCode(err), tc.want)
			}
		})
	}
}

// FuzzReadJSON: any body is decoded or refused with EINVALID, never a
// panic; a position it names is within the body.
func FuzzReadJSON(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"name":"a"}`, `{"name":"a" x}`, "{\n\"name\":\n", `{"name":"é` + "\xff" + `"}`, "{\xff}", `{"name":"a"} {}`, `[`, `{"a\q"}`} {
		f.Add(s)
	}
	byteRE := regexp.MustCompile(`\(byte (\d+)\)`)
	f.Fuzz(func(t *testing.T, body string) {
		var in struct {
			Name      string `json:"name"`
			ExpiresIn string `json:"expiresIn"`
		}
		req := jsonRequest("POST", "/api/v1/tokens", body)
		err := readJSON(req, &in)
		if err == nil {
			return
		}
		if vigil.ErrorCode(err) != vigil.EINVALID {
			t.Fatalf("%q: %v (%s), want EINVALID", body, err, vigil.ErrorCode(err))
		}
		if m := byteRE.FindStringSubmatch(vigil.ErrorMessage(err)); m != nil {
			if off, _ := strconv.Atoi(m[1]); off > len(body) {
				t.Errorf("%q: %v: past the body's %d bytes", body, err, len(body))
			}
		}
	})
}

// TestTimeParamDate: since and until take a date alone (2026-12-02), as
// vigil export warc --since does, for the start of that day in the zone
// the user's dates are read in (userLocation); GET
// /api/v1/changes?since=2026-12-02 was a 400. Nonsense is still refused,
// naming the parameter.
func TestTimeParamDate(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query string
		loc   *time.Location
		want  time.Time
		err   string
	}{
		{"since=2026-12-02", time.UTC, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), ""},
		{"since=2026-12-02", paris, time.Date(2026, 12, 1, 23, 0, 0, 0, time.UTC), ""},
		{"since=2026-07-02", paris, time.Date(2026, 7, 1, 22, 0, 0, 0, time.UTC), ""},
		{"since=2026-12-02T10:00:00Z", paris, time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC), ""},
		{"since=2026-13-02", time.UTC, time.Time{}, "since must be an RFC 3339 time (2026-01-02T15:04:05Z) or a date (2026-01-02)"},
		{"since=yesterday", time.UTC, time.Time{}, "since must be an RFC 3339 time (2026-01-02T15:04:05Z) or a date (2026-01-02)"},
		{"until=2026-12", time.UTC, time.Time{}, "until must be an RFC 3339 time (2026-01-02T15:04:05Z) or a date (2026-01-02)"},
	} {
		name, _, _ := strings.Cut(tc.query, "=")
		r := httptest.NewRequest("GET", "/api/v1/changes?"+tc.query, nil)
		got, err := timeParam(r, name, tc.loc)
		if tc.err != "" {
			if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != tc.err {
				t.Errorf("%s: %v, want %q", tc.query, err, tc.err)
			}
			continue
		}
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("%s in %s: %v, %v, want %v", tc.query, tc.loc, got, err, tc.want)
		}
	}
}

// TestAPIChangesSinceDate: GET /api/v1/changes and the versions of a
// resource take since and until as a date alone (200), where they were
// a 400.
func TestAPIChangesSinceDate(t *testing.T) {
	s, u := newTestServer(t)
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Warehouse, err = warehouse.New(s.Store, warehouse.Options{Codec: codec}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	auth := bearer(t, s.Store, u, "vgl_since_date")
	for _, path := range []string{"/api/v1/changes?since=2026-12-02", "/api/v1/changes?since=2026-12-01&until=2026-12-02"} {
		if status, body := apiCall(t, srv.URL, auth, "GET", path, ""); status != 200 {
			t.Errorf("GET %s: %d %v", path, status, body)
		}
	}
	if status, body := apiCall(t, srv.URL, auth, "GET", "/api/v1/changes?since=tomorrow", ""); status != 400 || !strings.Contains(fmt.Sprint(body), "since must be") {
		t.Errorf("since=tomorrow: %d %v", status, body)
	}
}
