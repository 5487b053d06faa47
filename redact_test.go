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
		{`chat telegram: telegram://123:SECRET@telegram?chats=@chan`, `chat telegram: telegram://123:xxxxx@telegram/…`},
		{`smtp://user:SECRET@mail.example.org:587/`, `smtp://user:xxxxx@mail.example.org:587`},
		{`status 500 from https://example.org/`, `status 500 from https://example.org`},
		{`no URL here: status 500`, `no URL here: status 500`},
	} {
		if got := vigil.RedactURLs(tc.in); got != tc.want {
			t.Errorf("RedactURLs(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestRedactDeliveryError: a delivery's error as the outbox and the chat
// notifier store and log it, through RedactTarget and then RedactURLs,
// names the target's host whatever its user information, with a password
// as xxxxx, and shows none of its secrets: password, a user name alone,
// path, query values.
func TestRedactDeliveryError(t *testing.T) {
	const refused = "dial tcp 127.0.0.1:18093: connect: connection refused"
	tests := map[string]struct {
		target, err, want string
		secrets           []string
	}{
		"user name of 8 bytes": {
			target:  "http://hookuser:S3cretHookPw@127.0.0.1:18093/hook?token=QueryTok123",
			err:     "webhook http://hookuser:xxxxx@127.0.0.1:18093/hook?token=QueryTok123: " + refused,
			want:    "webhook http://…:xxxxx@127.0.0.1:18093/…: " + refused,
			secrets: []string{"S3cretHookPw", "QueryTok123", "hookuser"},
		},
		"short user name": {
			target:  "http://alice:S3cretHookPw@127.0.0.1:18093/hook?token=QueryTok123",
			err:     "webhook http://alice:xxxxx@127.0.0.1:18093/hook?token=QueryTok123: " + refused,
			want:    "webhook http://alice:xxxxx@127.0.0.1:18093/…: " + refused,
			secrets: []string{"S3cretHookPw", "QueryTok123"},
		},
		"long user name": {
			target:  "http://a-very-long-user-name-indeed:pw@127.0.0.1:18093/hook",
			err:     "webhook http://a-very-long-user-name-indeed:xxxxx@127.0.0.1:18093/hook: " + refused,
			want:    "webhook http://…:xxxxx@127.0.0.1:18093/…: " + refused,
			secrets: []string{"a-very-long-user-name-indeed"},
		},
		"user without password": {
			target:  "http://TOKENasUSER1234@127.0.0.1:18093/hook",
			err:     `webhook http://TOKENasUSER1234@127.0.0.1:18093/hook: Post "http://TOKENasUSER1234@127.0.0.1:18093/hook": ` + refused,
			want:    `webhook http://127.0.0.1:18093/…: Post "http://127.0.0.1:18093/…": ` + refused,
			secrets: []string{"TOKENasUSER1234"},
		},
		"short user without password": {
			target: "http://bob@127.0.0.1:18093/hook",
			err:    "webhook http://bob@127.0.0.1:18093/hook: " + refused,
			want:   "webhook http://127.0.0.1:18093/…: " + refused,
		},
		"long password quoted raw": {
			target:  "https://u:an-extremely-long-password-0123456789@hooks.example.org/x",
			err:     `Post "https://u:an-extremely-long-password-0123456789@hooks.example.org/x": status 500`,
			want:    `Post "https://u:xxxxx@hooks.example.org/…": status 500`,
			secrets: []string{"an-extremely-long-password-0123456789"},
		},
		"short password quoted raw": {
			target:  "https://u:pw1@hooks.example.org/",
			err:     "send to https://u:pw1@hooks.example.org/ failed",
			want:    "send to https://u:xxxxx@hooks.example.org failed",
			secrets: []string{"pw1"},
		},
		"escaped user information": {
			target:  "http://hook%40user:S3cret%2FHook%3APw@127.0.0.1:18093/hook",
			err:     "webhook http://hook%40user:xxxxx@127.0.0.1:18093/hook: " + refused + "; password S3cret%2FHook%3APw, or S3cret/Hook:Pw",
			want:    "webhook http://…:xxxxx@127.0.0.1:18093/…: " + refused + "; password …, or …",
			secrets: []string{"S3cret", "hook%40user"},
		},
		"password with a slash, as written": {
			target:  "http://u:S3cret%2FPw@127.0.0.1:18093/hook",
			err:     "send http://u:S3cret/Pw@127.0.0.1:18093/hook: " + refused,
			want:    "send http://u:xxxxx@127.0.0.1:18093/…: " + refused,
			secrets: []string{"S3cret"},
		},
		"IPv6 host": {
			target:  "http://hookuser:S3cretHookPw@[::1]:18093/hook?token=QueryTok123",
			err:     "webhook http://hookuser:xxxxx@[::1]:18093/hook?token=QueryTok123: dial tcp [::1]:18093: connect: connection refused",
			want:    "webhook http://…:xxxxx@[::1]:18093/…: dial tcp [::1]:18093: connect: connection refused",
			secrets: []string{"S3cretHookPw", "QueryTok123", "hookuser"},
		},
		"IPv6 host at the end, in brackets": {
			target:  "http://hookuser:pw@[fe80::1]/",
			err:     "refused (by http://hookuser:xxxxx@[fe80::1]) [at http://[fe80::1]]",
			want:    "refused (by http://…:xxxxx@[fe80::1]) [at http://[fe80::1]]",
			secrets: []string{"hookuser"},
		},
		"inside a longer text": {
			target:  "https://hookuser:S3cretHookPw@hooks.example.org/T0/B0/SLACKTOKEN123",
			err:     `deliver 3 of 5: webhook https://hookuser:xxxxx@hooks.example.org/T0/B0/SLACKTOKEN123: Post "https://hooks.example.org/T0/B0/SLACKTOKEN123": EOF; will retry.`,
			want:    `deliver 3 of 5: webhook https://…:xxxxx@hooks.example.org/…: Post "https://hooks.example.org/…": EOF; will retry.`,
			secrets: []string{"S3cretHookPw", "SLACKTOKEN123", "hookuser"},
		},
		"several URLs": {
			target: "http://hookuser:S3cretHookPw@a.example/hook?token=QueryTok123",
			err: "webhook http://hookuser:xxxxx@a.example/hook?token=QueryTok123: redirect to https://alice:xxxxx@b.example:8443/new?token=QueryTok123: " +
				"redirect to http://c.example/x?sig=abc: EOF",
			want:    "webhook http://…:xxxxx@a.example/…: redirect to https://alice:xxxxx@b.example:8443/…: redirect to http://c.example/…: EOF",
			secrets: []string{"S3cretHookPw", "QueryTok123", "hookuser", "sig=abc"},
		},
		"user name the host holds": {
			target:  "https://monitoring:S3cretHookPw@monitoring.example.org/webhooks/TOKEN0123",
			err:     "webhook https://monitoring:xxxxx@monitoring.example.org/webhooks/TOKEN0123: status 500",
			want:    "webhook https://monitoring:xxxxx@monitoring.example.org/…: status 500",
			secrets: []string{"S3cretHookPw", "TOKEN0123"},
		},
		"path segment the host holds": {
			target:  "https://webhooks.example.org/webhooks/TOKEN0123",
			err:     "webhook https://webhooks.example.org/webhooks/TOKEN0123: dial tcp: lookup webhooks.example.org: no such host",
			want:    "webhook https://webhooks.example.org/…: dial tcp: lookup webhooks.example.org: no such host",
			secrets: []string{"TOKEN0123"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := vigil.RedactURLs(vigil.RedactTarget(tc.err, tc.target))
			if got != tc.want {
				t.Errorf("RedactURLs(RedactTarget(%q, %q))\n = %q\nwant %q", tc.err, tc.target, got, tc.want)
			}
			for _, secret := range tc.secrets {
				if strings.Contains(got, secret) {
					t.Errorf("%q shows %q", got, secret)
				}
			}
		})
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
		// Where the rule of the chat notifier's refusals hid more, before
		// both became URLSecrets: a target that does not parse, a query
		// split on ";", a fragment as written.
		{`parse "gotify://g.example/ASECRET%zz": opaque g.example/ASECRET%zz`, "gotify://g.example/ASECRET%zz", `parse "…": opaque …`},
		{`token SECRETtk0123 refused`, "https://h.example/hook?a=1;token=SECRETtk0123", `token … refused`},
		{`anchor Secret%20Frag1 unknown`, "https://h.example/x#Secret%20Frag1", `anchor … unknown`},
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
