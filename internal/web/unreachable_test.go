package web

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestUnreachableURLs: on a server that does not fetch private
// addresses (vigil serve without --allow-private-networks), a sentinel
// whose page or webhook is at one is valid, but the answers say that the
// server will not reach it: the live check, as a warning at the URL; the
// API's sentinel (created, and read again); the dashboard's sentinel
// page. It was saved without a word, and each check failed afterwards. A
// public page warns of nothing, nor does a server that reaches every
// address (Unreachable nil).
func TestUnreachableURLs(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	s.Unreachable = func(_ context.Context, raw string) string {
		pu, err := url.Parse(raw)
		if err != nil {
			t.Errorf("Unreachable(%q): %v", raw, err)
			return ""
		}
		switch pu.Hostname() {
		case "127.0.0.1":
			return "127.0.0.1 is a loopback address (vigil serve --allow-private-networks fetches it)"
		case "10.0.0.5":
			return "10.0.0.5 is a private address (vigil serve --allow-private-networks fetches it)"
		}
		return ""
	}
	c := newSignedIn(t, s, u)
	const (
		wantPage = "this server does not fetch http://127.0.0.1:8080/p: 127.0.0.1 is a loopback address (vigil serve --allow-private-networks fetches it)"
		wantHook = "this server does not call webhook http://10.0.0.5/hook: 10.0.0.5 is a private address (vigil serve --allow-private-networks fetches it)"
	)
	src := "Create Sentinel local\nUsing http://127.0.0.1:8080/p\nMonitor any change\nNotify By webhook http://10.0.0.5/hook\n"
	body := func(src string) string {
		b, err := json.Marshal(map[string]string{"source": src})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	check := func(src string) CheckResult {
		t.Helper()
		code, out := c.do("POST", "/api/v1/sentinels/check", body(src))
		var res CheckResult
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != http.StatusOK {
			t.Fatalf("check: %d %v\n%s", code, err, out)
		}
		return res
	}

	// The live check: each URL is marked where it is written.
	res := check(src)
	page := strings.Index(src, "http://127.0.0.1")
	hook := strings.Index(src, "http://10.0.0.5")
	want := []Diagnostic{
		{Line: 2, Column: 7, Offset: page, End: page + len("http://127.0.0.1:8080/p"), Message: wantPage},
		{Line: 4, Column: 19, Offset: hook, End: hook + len("http://10.0.0.5/hook"), Message: wantHook},
	}
	if !res.Valid || len(res.Errors) != 0 || len(res.Warnings) != len(want) {
		t.Fatalf("check: valid %v, errors %+v, warnings %+v; want valid, %+v", res.Valid, res.Errors, res.Warnings, want)
	}
	for i := range want {
		if res.Warnings[i] != want[i] {
			t.Errorf("check: warning %d is %+v, want %+v", i, res.Warnings[i], want[i])
		}
	}

	// Public addresses: no warning.
	public := strings.NewReplacer("127.0.0.1:8080", "a.example", "10.0.0.5", "hooks.example").Replace(src)
	if res := check(public); !res.Valid || len(res.Warnings) != 0 {
		t.Errorf("check of public URLs: valid %v, warnings %+v", res.Valid, res.Warnings)
	}

	// Added through the API: the answer says it, and so does the
	// sentinel read again.
	code, out := c.do("POST", "/api/v1/sentinels", body(src))
	var view struct {
		ID       int64
		Warnings []string
	}
	if err := json.Unmarshal([]byte(out), &view); err != nil || code != http.StatusCreated {
		t.Fatalf("create: %d %v\n%s", code, err, out)
	}
	if got := strings.Join(view.Warnings, "\n"); got != wantPage+"\n"+wantHook {
		t.Errorf("create: warnings %q, want %q and %q", view.Warnings, wantPage, wantHook)
	}
	path := sentinelPath(view.ID)
	_, out = c.do("GET", "/api/v1"+path, "")
	view.Warnings = nil
	if err := json.Unmarshal([]byte(out), &view); err != nil || strings.Join(view.Warnings, "\n") != wantPage+"\n"+wantHook {
		t.Errorf("GET %s: warnings %q (%v), want %q and %q", path, view.Warnings, err, wantPage, wantHook)
	}

	// Added through the dashboard: the sentinel's page, where the save
	// leads, says it.
	code, out = c.do("POST", "/sentinels", "source="+url.QueryEscape(strings.Replace(src, "local", "local2", 1)))
	if code != http.StatusSeeOther {
		t.Fatalf("dashboard create: %d\n%s", code, out)
	}
	_, out = c.do("GET", path, "")
	for _, w := range []string{wantPage, wantHook} {
		if !strings.Contains(html.UnescapeString(out), w) {
			t.Errorf("the page of the sentinel does not say %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "Checked less often") {
		t.Errorf("the page of the sentinel says it is checked less often:\n%s", out)
	}

	// A server that reaches every address warns of nothing.
	s.Unreachable = nil
	if res := check(strings.Replace(src, "local", "local3", 1)); !res.Valid || len(res.Warnings) != 0 {
		t.Errorf("check on a server that reaches private addresses: valid %v, warnings %+v", res.Valid, res.Warnings)
	}
}

// TestUnreachableNotStored: the warnings of the pages and webhooks this
// server does not reach are the server's of the day, not the sentinel's:
// its stored checked form (the API's spec) keeps none, so that a server
// started since with --allow-private-networks (Unreachable nil) says
// nothing of them anywhere. They were stored with it, under spec's
// warnings, and said so for ever.
func TestUnreachableNotStored(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	s.Unreachable = func(_ context.Context, raw string) string {
		if strings.Contains(raw, "127.0.0.1") {
			return "127.0.0.1 is a loopback address"
		}
		return ""
	}
	c := newSignedIn(t, s, u)
	b, err := json.Marshal(map[string]string{"source": "Create Sentinel local Using http://127.0.0.1:8080/p\nNotify By webhook http://127.0.0.1/hook\n"})
	if err != nil {
		t.Fatal(err)
	}
	code, out := c.do("POST", "/api/v1/sentinels", string(b))
	var view struct {
		ID       int64
		Warnings []string
	}
	if err := json.Unmarshal([]byte(out), &view); err != nil || code != http.StatusCreated || len(view.Warnings) != 2 {
		t.Fatalf("create: %d %v, warnings %q\n%s", code, err, view.Warnings, out)
	}
	s.Unreachable = nil // restarted with --allow-private-networks
	_, out = c.do("GET", "/api/v1"+sentinelPath(view.ID), "")
	if strings.Contains(out, "this server does not") {
		t.Errorf("the sentinel read on a server that reaches its URLs warns of them:\n%s", out)
	}
	stored, err := s.Store.FindSentinelByID(t.Context(), view.ID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(stored.Spec), "this server does not") {
		t.Errorf("the stored checked form keeps the server's warnings: %s", stored.Spec)
	}
}

// TestUnreachableAskedOnceAHost: a live check asks Server.Unreachable of
// each host once (the pages of one site and its webhook are one look-up),
// and not again once one look-up spent the request's budget (a DNS that
// does not answer): the hosts it had not asked of are not warned of. Each
// URL was looked up in turn, for up to the fetcher's timeout each.
func TestUnreachableAskedOnceAHost(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	asked := map[string]int{}
	s.Unreachable = func(ctx context.Context, raw string) string {
		pu, err := url.Parse(raw)
		if err != nil {
			t.Errorf("Unreachable(%q): %v", raw, err)
			return ""
		}
		asked[pu.Hostname()]++
		if strings.HasPrefix(pu.Hostname(), "hung") {
			if _, ok := ctx.Deadline(); !ok {
				t.Errorf("Unreachable(%q) without a deadline", raw)
				return ""
			}
			<-ctx.Done() // a DNS that never answers
			return ""
		}
		return "a private address"
	}
	c := newSignedIn(t, s, u)
	src := "Create Sentinel many\nUsing http://10.0.0.5/a OR http://10.0.0.5/b OR http://10.0.0.5:8080/c\n" +
		"  OR http://hung1.example/ OR http://hung2.example/ OR http://hung3.example/\n" +
		"Monitor any change\nNotify By webhook http://10.0.0.5/hook\n"
	b, err := json.Marshal(map[string]string{"source": src})
	if err != nil {
		t.Fatal(err)
	}
	code, out := c.do("POST", "/api/v1/sentinels/check", string(b))
	if code != http.StatusOK {
		t.Fatalf("check: %d\n%s", code, out)
	}
	var res CheckResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	got := 0
	for _, w := range res.Warnings {
		if strings.HasPrefix(w.Message, "this server does not") {
			got++
		}
	}
	if got != 4 {
		t.Errorf("%d warnings, want 4 (three pages and the webhook of 10.0.0.5):\n%s", got, out)
	}
	want := map[string]int{"10.0.0.5": 1, "hung1.example": 1}
	if len(asked) != len(want) || asked["10.0.0.5"] != 1 || asked["hung1.example"] != 1 {
		t.Errorf("hosts asked of %v, want %v", asked, want)
	}
}
