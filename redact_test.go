package vigil_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// redactCase is a case of testdata/redacturl.json, the table that
// RedactURL and spec's copy of it (spec/hidepassword_test.go) are both
// held to, so that the two cannot drift apart unseen.
type redactCase struct{ Name, In, Want string }

func readRedactCases(t *testing.T, path string) []redactCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []redactCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return cases
}

func TestRedactURL(t *testing.T) {
	for _, tc := range readRedactCases(t, "testdata/redacturl.json") {
		t.Run(tc.Name, func(t *testing.T) {
			got := vigil.RedactURL(tc.In)
			if got != tc.Want {
				t.Fatalf("RedactURL(%q) = %q, want %q", tc.In, got, tc.Want)
			}
			if strings.Contains(tc.Want, "s3") {
				t.Fatalf("the table wants %q, which shows the password", tc.Want)
			}
		})
	}
}

// TestCanonicalURLErrorsHidePassword: every error of CanonicalURL names
// the URL with its password as xxxxx.
func TestCanonicalURLErrorsHidePassword(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"does not parse":   {in: "http://user:s3cret@a.example:x/", want: `"http://user:xxxxx@a.example:x/"`},
		"no scheme":        {in: "user:s3cret@a.example:8080/docs", want: `"user:xxxxx@a.example:8080/docs"`},
		"scheme":           {in: "ftp://user:s3cret@a.example/", want: `"ftp://user:xxxxx@a.example/"`},
		"no host":          {in: "http://user:s3cret@/x", want: `"http://user:xxxxx@/x"`},
		"unicode host":     {in: "http://user:s3cret@bücher.example/", want: `"http://user:xxxxx@bücher.example/"`},
		"invalid path":     {in: "http://user:s3cret@a.example/%zz", want: `"http://user:xxxxx@a.example/%zz"`},
		"opaque":           {in: "http:user:s3cret@a.example", want: `"http:xxxxx@a.example"`},
		"trimmed password": {in: " http://u:s3cret@[::1/ ", want: `http://u:xxxxx@[::1/`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := vigil.CanonicalURL(tc.in)
			if err == nil {
				t.Fatalf("CanonicalURL(%q): no error", tc.in)
			}
			msg := vigil.ErrorMessage(err)
			if vigil.ErrorCode(err) != vigil.EINVALID || strings.Contains(err.Error(), "s3cret") || !strings.Contains(msg, tc.want) {
				t.Fatalf("CanonicalURL(%q): %v; want EINVALID naming %s, no password", tc.in, err, tc.want)
			}
		})
	}
}

// TestResourceValidateHidesPassword: a resource whose URL is not
// canonical is named with its password hidden.
func TestResourceValidateHidesPassword(t *testing.T) {
	r := &vigil.Resource{URL: "HTTP://user:s3cret@a.example/", Host: "a.example"}
	err := r.Validate()
	if vigil.ErrorCode(err) != vigil.EINVALID || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "user:xxxxx@") {
		t.Errorf("Validate: %v; want EINVALID naming the URL with its password hidden", err)
	}
}

func TestRedactURLs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`webhook https://hooks.example.org/vigil?token=SECRET: Post "https://hooks.example.org/vigil?token=SECRET": dial tcp: refused`,
			`webhook https://hooks.example.org/…: Post "https://hooks.example.org/…": dial tcp: refused`},
		{`chat discord: Post "https://discord.com/api/webhooks/123/SECRET": timeout`, `chat discord: Post "https://discord.com/…": timeout`},
		{`chat telegram: telegram://123:SECRET@telegram?chats=@chan`, `chat telegram: telegram://telegram/…`},
		{`smtp://user:SECRET@mail.example.org:587/`, `smtp://mail.example.org:587/…`},
		{`status 500 from https://example.org/`, `status 500 from https://example.org`},
		{`no URL here: status 500`, `no URL here: status 500`},
	} {
		if got := vigil.RedactURLs(tc.in); got != tc.want {
			t.Errorf("RedactURLs(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestRedactTarget: the parts of a delivery's target that may be secret
// (user information, path segments, query values, fragment; 8 bytes at
// least) are hidden wherever an error quotes them, alone or in a URL; its
// host is kept, and so are short words.
func TestRedactTarget(t *testing.T) {
	for _, tc := range []struct{ in, target, want string }{
		{`invalid gotify token: "ASECRETtk0123xy"`, "gotify://g.example/ASECRETtk0123xy", `invalid gotify token: "…"`},
		{`chat ntfy at n.example:8080: Post "http://n.example:8080/topicSECRET1": refused`, "ntfy://me:pw-SECRET2@n.example:8080/topicSECRET1?scheme=http",
			`chat ntfy at n.example:8080: Post "http://n.example:8080/…": refused`},
		{`token SECRETtk01232 refused; user me-myself-and-i`, "generic+http://me-myself-and-i@h.example/hook?token=SECRETtk01232", `token … refused; user …`},
		{`api send failed`, "generic://h.example/api/send", `api send failed`},
		{`not a URL: x`, "http://a b/", `not a URL: x`},
	} {
		if got := vigil.RedactTarget(tc.in, tc.target); got != tc.want {
			t.Errorf("RedactTarget(%q, %q)\n = %q\nwant %q", tc.in, tc.target, got, tc.want)
		}
	}
}

// TestRedactSecrets: the URLs of a log line are cut as RedactURLs cuts
// them, and the values of the headers that carry credentials, and a
// bearer or basic token, are hidden, in the forms a line shows them in:
// a header as sent, a printed http.Header, JSON.
func TestRedactSecrets(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`http: panic serving 10.0.0.1:5555: GET https://vigil.example/api/v1/feed?token=SECRET`,
			`http: panic serving 10.0.0.1:5555: GET https://vigil.example/…`},
		{"http: panic serving 10.0.0.1:5555: header map[Accept:[*/*] Authorization:[Bearer SECRET] Cookie:[vigil_session=SECRET]]\ngoroutine 7 [running]:",
			"http: panic serving 10.0.0.1:5555: header map[Accept:[*/*] Authorization:[…] Cookie:[…]]\ngoroutine 7 [running]:"},
		{"Proxy-Authorization: Basic dmlnaWw6U0VDUkVU\r\nHost: x", "Proxy-Authorization: …\r\nHost: x"},
		{`{"authorization": "Bearer SECRET", "name": "x"}`, `{"authorization": "…", "name": "x"}`},
		{`token rejected: Bearer SECRET-TOKEN-1234`, `token rejected: Bearer …`},
		{`set-cookie=vigil_session=SECRET; Path=/`, `set-cookie=…`},
		{`http: TLS handshake error from 10.0.0.1:5555: EOF`, `http: TLS handshake error from 10.0.0.1:5555: EOF`},
		{`Basic authentication failed`, `Basic authentication failed`},
	} {
		got := vigil.RedactSecrets(tc.in)
		if got != tc.want {
			t.Errorf("RedactSecrets(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
		if strings.Contains(got, "SECRET") || strings.Contains(got, "dmlnaWw6") {
			t.Errorf("RedactSecrets(%q) shows the secret: %q", tc.in, got)
		}
	}
}
