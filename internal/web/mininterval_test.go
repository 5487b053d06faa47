package web

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestFetchBelowMinInterval: a sentinel that fetches more often than the
// server checks (vigil serve --min-interval) is valid, but the answers
// say what interval it gets: the live check, as a warning at its Fetch
// clause; the API's sentinel (created, and read again); the dashboard's
// sentinel page. A Fetch of 1 second answered valid, with no warning,
// and was checked every minute. One within the bound, and a server that
// does not say its bound, warn of nothing.
func TestFetchBelowMinInterval(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	s.MinInterval = time.Minute
	c := newSignedIn(t, s, u)
	const want = "Fetch 1 second: this server checks at most every 1 minute (--min-interval)"
	src := "Create Sentinel fast\nUsing http://a.example/p\nMonitor any change\nFetch 1 second\n"
	body := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	// The live check.
	code, out := c.do("POST", "/api/v1/sentinels/check", body(map[string]string{"source": src}))
	var res CheckResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != http.StatusOK {
		t.Fatalf("check: %d %v\n%s", code, err, out)
	}
	at := strings.Index(src, "1 second")
	wantDiag := Diagnostic{Line: 4, Column: 7, Offset: at, End: at + len("1 second"), Message: want}
	if !res.Valid || len(res.Warnings) != 1 || res.Warnings[0] != wantDiag {
		t.Errorf("check: valid %v, warnings %+v; want valid, %+v", res.Valid, res.Warnings, wantDiag)
	}
	// Its JSON form: the warning names the field.
	code, out = c.do("POST", "/api/v1/sentinels/check", `{"sentinel":{"name":"fastjson","using":{"url":"http://a.example/p"},"fetch":{"interval":"1 second"}}}`)
	res = CheckResult{}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != http.StatusOK {
		t.Fatalf("check JSON: %d %v\n%s", code, err, out)
	}
	if !res.Valid || len(res.Warnings) != 1 || res.Warnings[0] != (Diagnostic{Field: "fetch.interval", Message: want}) {
		t.Errorf("check of the JSON form: valid %v, warnings %+v, errors %+v", res.Valid, res.Warnings, res.Errors)
	}

	// Within the bound: no warning.
	code, out = c.do("POST", "/api/v1/sentinels/check", body(map[string]string{"source": strings.Replace(src, "1 second", "1 minute", 1)}))
	res = CheckResult{}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != http.StatusOK || !res.Valid || len(res.Warnings) != 0 {
		t.Errorf("check of Fetch 1 minute: %d %v %+v", code, err, res)
	}

	// Added through the API: the answer says it, and so does the
	// sentinel read again.
	code, out = c.do("POST", "/api/v1/sentinels", body(map[string]string{"source": src}))
	var view struct {
		ID       int64
		Warnings []string
	}
	if err := json.Unmarshal([]byte(out), &view); err != nil || code != http.StatusCreated {
		t.Fatalf("create: %d %v\n%s", code, err, out)
	}
	if len(view.Warnings) != 1 || view.Warnings[0] != want {
		t.Errorf("create: warnings %q, want %q", view.Warnings, want)
	}
	path := sentinelPath(view.ID)
	_, out = c.do("GET", "/api/v1"+path, "")
	view.Warnings = nil
	if err := json.Unmarshal([]byte(out), &view); err != nil || len(view.Warnings) != 1 || view.Warnings[0] != want {
		t.Errorf("GET %s: warnings %q (%v), want %q", path, view.Warnings, err, want)
	}

	// Added through the dashboard: its page says it.
	code, out = c.do("POST", "/sentinels", "source="+url.QueryEscape(strings.Replace(src, "fast", "fast2", 1)))
	if code != http.StatusSeeOther {
		t.Fatalf("dashboard create: %d\n%s", code, out)
	}
	_, list := c.do("GET", "/api/v1/sentinels", "")
	var all struct {
		Items []struct {
			ID   int64
			Name string
		}
	}
	if err := json.Unmarshal([]byte(list), &all); err != nil {
		t.Fatal(err)
	}
	for _, sen := range all.Items {
		_, page := c.do("GET", sentinelPath(sen.ID), "")
		if !strings.Contains(html.UnescapeString(page), want) {
			t.Errorf("the page of sentinel %s does not say %q:\n%s", sen.Name, want, page)
		}
	}

	// A server that does not say its bound warns of nothing.
	s.MinInterval = 0
	code, out = c.do("POST", "/api/v1/sentinels/check", body(map[string]string{"source": strings.Replace(src, "fast", "fast3", 1)}))
	res = CheckResult{}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != http.StatusOK || !res.Valid || len(res.Warnings) != 0 {
		t.Errorf("check without a bound: %d %v %+v", code, err, res)
	}
}

// TestUnsendableChannelWarned: a sentinel that notifies by a channel this
// server cannot send on (email without an SMTP relay) says so once saved,
// in the API's sentinel and list and on its dashboard page, as the live
// check says it: only the live check did, and the sentinel then stayed
// silent. Its other channels, and a sentinel of those alone, warn of
// nothing.
func TestUnsendableChannelWarned(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	s.Unsendable = func(channel string) string {
		if channel == "email" {
			return "email is not configured on this server"
		}
		return ""
	}
	c := newSignedIn(t, s, u)
	const want = "notifications by email will not be sent: email is not configured on this server"
	create := func(src string) int64 {
		t.Helper()
		b, _ := json.Marshal(map[string]string{"source": src})
		code, out := c.do("POST", "/api/v1/sentinels", string(b))
		var view struct{ ID int64 }
		if err := json.Unmarshal([]byte(out), &view); err != nil || code != http.StatusCreated {
			t.Fatalf("create: %d %v\n%s", code, err, out)
		}
		return view.ID
	}
	mailed := create("Create Sentinel mailed Using http://a.example/p\nNotify By email owner@example.test, webhook https://hooks.example/x, email other@example.test\n")
	hooked := create("Create Sentinel hooked Using http://a.example/p\nNotify By webhook https://hooks.example/x\n")
	warnings := func(id int64) []string {
		t.Helper()
		_, out := c.do("GET", "/api/v1"+sentinelPath(id), "")
		var view struct{ Warnings []string }
		if err := json.Unmarshal([]byte(out), &view); err != nil {
			t.Fatalf("GET sentinel %d: %v\n%s", id, err, out)
		}
		return view.Warnings
	}
	if got := warnings(mailed); len(got) != 1 || got[0] != want {
		t.Errorf("the emailing sentinel's warnings: %q, want [%q]", got, want)
	}
	if got := warnings(hooked); len(got) != 0 {
		t.Errorf("the webhook sentinel's warnings: %q, want none", got)
	}
	_, list := c.do("GET", "/api/v1/sentinels", "")
	if strings.Count(list, want) != 1 {
		t.Errorf("the list says %q %d times, want once:\n%s", want, strings.Count(list, want), list)
	}
	if _, page := c.do("GET", sentinelPath(mailed), ""); !strings.Contains(html.UnescapeString(page), want) {
		t.Errorf("the emailing sentinel's page does not say %q:\n%s", want, page)
	}
	if _, page := c.do("GET", sentinelPath(hooked), ""); strings.Contains(page, `id="unsent"`) {
		t.Errorf("the webhook sentinel's page warns of a channel:\n%s", page)
	}
	// An interactive sentinel sends on no channel: not of email's alone.
	shown := create("Create Sentinel shown Using http://a.example/p\nNotify By email owner@example.test\nEvery interactive\n")
	if got := warnings(shown); len(got) != 0 {
		t.Errorf("the interactive sentinel's warnings: %q, want none", got)
	}
	if _, page := c.do("GET", sentinelPath(shown), ""); strings.Contains(page, `id="unsent"`) {
		t.Errorf("the interactive sentinel's page warns of a channel:\n%s", page)
	}
}
