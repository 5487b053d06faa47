package web

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"text/template/parse"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestPagesInUserZone: every time the dashboard shows a signed-in user is
// in their own zone, named by its abbreviation, with the daylight saving
// time of the day shown (New York's 01:30 of 2026-11-01 happens twice, EDT
// then EST), while the datetime attributes stay RFC 3339 in UTC. Every
// page said "... UTC" whatever the user's zone.
func TestPagesInUserZone(t *testing.T) {
	ctx := context.Background()
	s, ada := newTestServer(t)
	useWarehouse(t, s)
	bob := &vigil.User{Email: "bob@example.com", Name: "Bob"}
	if err := s.Store.CreateUser(ctx, bob); err != nil {
		t.Fatal(err)
	}
	ac, bc := newSignedIn(t, s, ada), newSignedIn(t, s, bob)
	callMe(t, ac, "PATCH", `{"timeZone": "Asia/Tokyo"}`)
	callMe(t, bc, "PATCH", `{"timeZone": "America/New_York"}`)
	utc := func(s string) time.Time {
		t.Helper()
		at, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return at
	}

	tokyo := createChecked(t, s, ada, "Create Sentinel tokyo Using http://t.example/ Fetch 1 hour")
	if err := s.Store.CheckedSentinel(ctx, tokyo.ID, utc("2026-12-02T07:04:00Z"), utc("2026-12-02T08:04:00Z")); err != nil {
		t.Fatal(err)
	}
	// New York leaves daylight saving time at 06:00 UTC on 2026-11-01.
	ny := createChecked(t, s, bob, "Create Sentinel ny Using http://n.example/ Fetch 1 hour")
	if err := s.Store.CheckedSentinel(ctx, ny.ID, utc("2026-10-31T12:00:00Z"), utc("2026-11-02T12:00:00Z")); err != nil {
		t.Fatal(err)
	}
	w := s.Warehouse.(*warehouse.Warehouse)
	put := func(at time.Time, body string) *vigil.Version {
		t.Helper()
		v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://n.example/", FetchedAt: at, Status: 200, ContentType: "text/html", Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := put(utc("2026-11-01T05:30:00Z"), "<p>one</p>")
	after := put(utc("2026-11-01T06:30:00Z"), "<p>two</p>")
	change := &vigil.Change{SentinelID: ny.ID, ResourceID: after.ResourceID, FromVersion: before.ID, ToVersion: after.ID,
		DetectedAt: utc("2026-11-01T06:31:00Z"), Summary: "1 paragraph changed"}
	if err := s.Store.CreateChange(ctx, change); err != nil {
		t.Fatal(err)
	}
	letter := &vigil.Notification{UserID: bob.ID, Channel: "email", Target: "bob@example.com", Payload: json.RawMessage(`{"subject":"x"}`)}
	if err := s.Store.EnqueueNotification(ctx, letter); err != nil {
		t.Fatal(err)
	}
	if err := s.Store.MarkNotificationFailed(ctx, letter.ID, "refused", utc("2026-11-01T05:30:00Z")); err != nil {
		t.Fatal(err)
	}
	// New York enters daylight saving time at 07:00 UTC on 2027-03-14.
	if err := s.Store.CreateToken(ctx, &vigil.Token{UserID: bob.ID, Name: "cli", Hash: vigil.HashToken("secret"), ExpiresAt: utc("2027-03-14T07:00:00Z")}); err != nil {
		t.Fatal(err)
	}

	id := func(n int64) string { return strconv.FormatInt(n, 10) }
	res := "/resources/" + id(after.ResourceID)
	diff := res + "/diff?from=" + id(before.ID) + "&to=" + id(after.ID) + "&view=inline&change=" + id(change.ID)
	shown := func(at, text string) string { return `<time datetime="` + at + `">` + text + `</time>` }
	// The sentinels started when they were made, now; the resource's
	// plot ends 10 minutes after its last version.
	var clock time.Time
	s.Now = func() time.Time {
		if clock.IsZero() {
			return time.Now()
		}
		return clock
	}
	for _, tc := range []struct {
		c     *signedIn
		path  string
		clock time.Time
		wants []string
	}{
		{ac, "/sentinels/" + id(tokyo.ID), time.Time{}, []string{"<dt>Last check</dt><dd>2026-12-02 16:04:00 JST</dd>", "<dt>Next check</dt><dd>2026-12-02 17:04:00 JST</dd>"}},
		{ac, "/sentinels", time.Time{}, []string{`title="2026-12-02 16:04:00 JST"`, `title="2026-12-02 17:04:00 JST"`}},
		{ac, "/users", time.Time{}, []string{" JST</td>"}},
		{bc, "/sentinels/" + id(ny.ID), time.Time{}, []string{
			"<dt>Last check</dt><dd>2026-10-31 08:00:00 EDT</dd>", "<dt>Next check</dt><dd>2026-11-02 07:00:00 EST</dd>",
			shown("2026-11-01T06:31:00Z", "2026-11-01 01:31:00 EST"),
		}},
		{bc, "/sentinels", time.Time{}, []string{`title="2026-10-31 08:00:00 EDT"`, `title="2026-11-02 07:00:00 EST"`, `title="2026-11-01 01:31:00 EST"`}},
		{bc, res, utc("2026-11-01T06:40:00Z"), []string{
			shown("2026-11-01T05:30:00Z", "2026-11-01 01:30:00 EDT"), shown("2026-11-01T06:30:00Z", "2026-11-01 01:30:00 EST"),
			">#1 2026-11-01 01:30:00 EDT</option>", ">#2 2026-11-01 01:30:00 EST</option>",
			shown("2026-11-01T06:31:00Z", "2026-11-01 01:31:00 EST"),
			"from 2026-11-01 01:30 EDT to 2026-11-01 01:45 EST, per 5 minutes", // the plot's, in 5-minute bars
		}},
		{bc, diff, time.Time{}, []string{
			"change found 2026-11-01 01:31:00 EST by sentinel",
			"From <a href=\"" + res + "#version-" + id(before.ID) + "\">" + shown("2026-11-01T05:30:00Z", "2026-11-01 01:30:00 EDT"),
			shown("2026-11-01T06:30:00Z", "2026-11-01 01:30:00 EST") + " #2</a>",
		}},
		{bc, "/notifications", time.Time{}, []string{"next at 2026-11-01 01:30:00 EDT"}},
		{bc, "/tokens", time.Time{}, []string{`<td data-label="Expires">2027-03-14 03:00:00 EDT</td>`}},
	} {
		clock = tc.clock
		status, page := tc.c.do("GET", tc.path, "")
		if status != 200 {
			t.Fatalf("GET %s: %d\n%s", tc.path, status, page)
		}
		for _, want := range tc.wants {
			if !strings.Contains(page, want) {
				t.Errorf("GET %s does not say %q", tc.path, want)
			}
		}
		if m := shownUTC.FindString(page); m != "" {
			t.Errorf("GET %s shows a time in UTC: %q", tc.path, m)
		}
		for _, a := range datetimeAttr.FindAllStringSubmatch(page, -1) {
			if !strings.HasSuffix(a[1], "Z") {
				t.Errorf("GET %s: datetime %q is not in UTC", tc.path, a[1])
			}
		}
	}
}

var (
	shownUTC     = regexp.MustCompile(`\d\d:\d\d(:\d\d)? UTC`)
	datetimeAttr = regexp.MustCompile(`datetime="([^"]*)"`)
)

// TestTemplatesShowTimesInAZone: every time a template shows goes
// through the time helper with the view's zone as well ({{time .At
// $.Loc}}); a call without it fails only when its branch is rendered.
func TestTemplatesShowTimesInAZone(t *testing.T) {
	calls := 0
	for name, page := range pages {
		for _, tmpl := range page.Templates() {
			if tmpl.Tree == nil {
				continue
			}
			walkCommands(tmpl.Tree.Root, func(cmd *parse.CommandNode) {
				if id, ok := cmd.Args[0].(*parse.IdentifierNode); ok && id.Ident == "time" {
					calls++
					if len(cmd.Args) != 3 {
						t.Errorf("%s: template %s: %s: want time with a time and a zone", name, tmpl.Name(), cmd)
					}
				}
			})
		}
	}
	if calls == 0 {
		t.Fatal("no call of time found in the templates")
	}
}

// walkCommands calls f on every command under n.
func walkCommands(n parse.Node, f func(*parse.CommandNode)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				walkCommands(c, f)
			}
		}
	case *parse.ActionNode:
		walkCommands(n.Pipe, f)
	case *parse.PipeNode:
		if n != nil {
			for _, c := range n.Cmds {
				walkCommands(c, f)
			}
		}
	case *parse.CommandNode:
		f(n)
		for _, a := range n.Args {
			walkCommands(a, f)
		}
	case *parse.IfNode:
		walkCommands(n.Pipe, f)
		walkCommands(n.List, f)
		walkCommands(n.ElseList, f)
	case *parse.RangeNode:
		walkCommands(n.Pipe, f)
		walkCommands(n.List, f)
		walkCommands(n.ElseList, f)
	case *parse.WithNode:
		walkCommands(n.Pipe, f)
		walkCommands(n.List, f)
		walkCommands(n.ElseList, f)
	case *parse.TemplateNode:
		walkCommands(n.Pipe, f)
	}
}
