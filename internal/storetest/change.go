package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

func testChanges(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "s", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, sn))
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	for i := range 5 {
		c := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: int64(i), ToVersion: int64(i + 1),
			DetectedAt: t0.Add(time.Duration(i) * time.Hour), Summary: fmt.Sprint("change ", i), Records: json.RawMessage(`[{"op":"insert"}]`)}
		must(t, s.CreateChange(ctx, c))
	}
	got, n, err := s.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sn.ID, Since: t0.Add(time.Hour), Until: t0.Add(4 * time.Hour)})
	must(t, err)
	if n != 3 || len(got) != 3 || got[0].Summary != "change 3" || got[2].Summary != "change 1" {
		t.Fatalf("range: %d %v", n, got)
	}
	c, err := s.FindChangeByID(ctx, got[0].ID)
	must(t, err)
	if string(c.Records) != `[{"op":"insert"}]` || c.ResourceID != r.ID {
		t.Fatalf("change %+v", c)
	}
	// Deleting the owner deletes the sentinel and its changes; an outbox
	// entry about a change loses the reference, not the message.
	note := &vigil.Notification{ChangeID: got[0].ID, Channel: "email", Target: "ada@example.com", Payload: json.RawMessage(`{}`)}
	must(t, s.EnqueueNotification(ctx, note))
	// A notification being delivered when its sentinel is removed: its
	// attempt fails after, and must not bring it back.
	inFlight := &vigil.Notification{ChangeID: got[0].ID, Channel: "email", Target: "ada@example.com", Payload: json.RawMessage(`{}`)}
	must(t, s.EnqueueNotification(ctx, inFlight))
	sent := &vigil.Notification{ChangeID: got[0].ID, Channel: "email", Target: "ada@example.com", Payload: json.RawMessage(`{}`)}
	must(t, s.EnqueueNotification(ctx, sent))
	must(t, s.MarkNotificationSent(ctx, sent.ID, t0))
	u2 := newUser(t, s, "bob@example.com")
	sn2 := &vigil.Sentinel{OwnerID: u2.ID, Name: "s2", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, sn2))
	c2 := &vigil.Change{SentinelID: sn2.ID, ResourceID: r.ID, ToVersion: 9, DetectedAt: t0}
	must(t, s.CreateChange(ctx, c2))
	// By owner: each user's changes only, with the resource's too.
	for _, tc := range []struct {
		f    vigil.ChangeFilter
		want int
	}{{vigil.ChangeFilter{OwnerID: u.ID}, 5}, {vigil.ChangeFilter{OwnerID: u2.ID}, 1}, {vigil.ChangeFilter{ResourceID: r.ID}, 6},
		{vigil.ChangeFilter{OwnerID: u2.ID, ResourceID: r.ID, Limit: 1}, 1}} {
		got, n, err := s.FindChanges(ctx, tc.f)
		must(t, err)
		if n != tc.want {
			t.Fatalf("%+v: %d changes, want %d", tc.f, n, tc.want)
		}
		for _, c := range got {
			if tc.f.OwnerID == u2.ID && c.SentinelID != sn2.ID {
				t.Fatalf("%+v: change %d of sentinel %d", tc.f, c.ID, c.SentinelID)
			}
		}
	}
	// Counted by sentinel, in one read: the filters as FindChanges's.
	r2, err := s.EnsureResource(ctx, "http://example.org/")
	must(t, err)
	must(t, s.CreateChange(ctx, &vigil.Change{SentinelID: sn2.ID, ResourceID: r2.ID, ToVersion: 3, DetectedAt: t0}))
	for _, tc := range []struct {
		f    vigil.ChangeFilter
		want map[int64]int
	}{
		{vigil.ChangeFilter{}, map[int64]int{sn.ID: 5, sn2.ID: 2}},
		{vigil.ChangeFilter{ResourceID: r.ID}, map[int64]int{sn.ID: 5, sn2.ID: 1}},
		{vigil.ChangeFilter{OwnerID: u2.ID}, map[int64]int{sn2.ID: 2}},
		{vigil.ChangeFilter{OwnerID: u.ID, ResourceID: r2.ID}, map[int64]int{}},
		{vigil.ChangeFilter{SentinelID: sn.ID, Since: t0.Add(time.Hour), Until: t0.Add(4 * time.Hour), Limit: 1, Offset: 1}, map[int64]int{sn.ID: 3}},
	} {
		got, err := s.CountChangesBySentinel(ctx, tc.f)
		must(t, err)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Fatalf("CountChangesBySentinel(%+v) = %v, want %v", tc.f, got, tc.want)
		}
	}
	must(t, s.DeleteUser(ctx, u2.ID))
	_, err = s.FindSentinelByID(ctx, sn2.ID)
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.FindChangeByID(ctx, c2.ID)
	wantCode(t, err, vigil.ENOTFOUND)
	must(t, s.DeleteSentinel(ctx, sn.ID))
	_, n5, err := s.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sn.ID})
	must(t, err)
	if n5 != 0 {
		t.Fatalf("%d changes left after their sentinel went", n5)
	}
	must(t, s.MarkNotificationFailed(ctx, inFlight.ID, "503", t0.Add(time.Hour)))
	if n, err := s.FindNotificationByID(ctx, inFlight.ID); err != nil || n.State != vigil.NotificationDead || n.LastError != vigil.SentinelRemoved {
		t.Fatalf("an attempt failing after its sentinel went: %+v, %v; want it dead", n, err)
	}
	// The notification not yet sent is given up, not retried; the one sent
	// stays sent.
	kept, err := s.FindNotificationByID(ctx, note.ID)
	must(t, err)
	if kept.ChangeID != 0 || kept.State != vigil.NotificationDead || kept.LastError != vigil.SentinelRemoved {
		t.Fatalf("pending notification after its sentinel went: change %d, %s, %q", kept.ChangeID, kept.State, kept.LastError)
	}
	if kept, err = s.FindNotificationByID(ctx, sent.ID); err != nil || kept.State != vigil.NotificationSent || kept.ChangeID != 0 {
		t.Fatalf("sent notification after its sentinel went: %+v, %v", kept, err)
	}
	wantCode(t, s.CreateChange(ctx, &vigil.Change{SentinelID: 9999, ResourceID: r.ID, ToVersion: 1, DetectedAt: t0}), vigil.ENOTFOUND)
	wantCode(t, s.CreateChange(ctx, &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, DetectedAt: t0}), vigil.EINVALID)
	_, err = s.FindChangeByID(ctx, 9999)
	wantCode(t, err, vigil.ENOTFOUND)
}

// testIDsNeverReused deletes the newest sentinel and change and creates
// others: their ids must be new ones. A sentinel's feed URL is an HMAC of
// its id, and notifications link to changes by id: a reused id would hand
// another user's sentinel the old feed's subscribers.
func testIDsNeverReused(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	a := &vigil.Sentinel{OwnerID: u.ID, Name: "a", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, a))
	b := &vigil.Sentinel{OwnerID: u.ID, Name: "b", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, b))
	cb := &vigil.Change{SentinelID: b.ID, ResourceID: r.ID, ToVersion: 1, DetectedAt: t0}
	must(t, s.CreateChange(ctx, cb))
	must(t, s.DeleteSentinel(ctx, b.ID)) // and its change
	c := &vigil.Sentinel{OwnerID: u.ID, Name: "c", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, c))
	if c.ID <= b.ID {
		t.Fatalf("sentinel %d created after %d was deleted", c.ID, b.ID)
	}
	cc := &vigil.Change{SentinelID: c.ID, ResourceID: r.ID, ToVersion: 1, DetectedAt: t0}
	must(t, s.CreateChange(ctx, cc))
	if cc.ID <= cb.ID {
		t.Fatalf("change %d created after %d was deleted", cc.ID, cb.ID)
	}
	// The newest resource, with the newest version, deleted: neither id is
	// given to a resource or version of another URL, which a reader that
	// kept the ids (the monitor) would take for the deleted ones.
	gone, err := s.EnsureResource(ctx, "http://example.com/gone")
	must(t, err)
	gv := appendBody(t, s, gone, 0, t0, "gone")
	must(t, s.DeleteResource(ctx, gone.ID))
	next, err := s.EnsureResource(ctx, "http://example.com/next")
	must(t, err)
	if next.ID <= gone.ID {
		t.Fatalf("resource %d created after %d was deleted", next.ID, gone.ID)
	}
	if nv := appendBody(t, s, next, 0, t0, "next"); nv.ID <= gv.ID {
		t.Fatalf("version %d created after %d was deleted", nv.ID, gv.ID)
	}
}

// testChangePages: the pages the changes of some sentinels name (the
// resource each is recorded on, the pages a site's change lists in its
// records, by URL and resource id as written) are returned once each, with
// their sentinel, filtered by resource id or URL; a change's pages go with
// it.
func testChangePages(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	site := &vigil.Sentinel{OwnerID: u.ID, Name: "site", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, site))
	page := &vigil.Sentinel{OwnerID: u.ID, Name: "page", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, page))
	var rs []*vigil.Resource
	for _, url := range []string{"http://a.example/", "http://a.example/guide", "http://a.example/faq", "http://b.example/"} {
		r, err := s.EnsureResource(ctx, url)
		must(t, err)
		rs = append(rs, r)
	}
	start, guide, faq, other := rs[0], rs[1], rs[2], rs[3]
	records := func(pages ...string) json.RawMessage {
		return json.RawMessage(`[` + strings.Join(pages, ",") + `]`)
	}
	changes := []*vigil.Change{
		{SentinelID: site.ID, ResourceID: start.ID, ToVersion: 1, DetectedAt: t0, Records: records(
			fmt.Sprintf(`{"op":"insert","kind":"page","page":{"url":%q,"resourceId":%d,"title":"Guide"}}`, guide.URL, guide.ID),
			`{"op":"delete","kind":"page","page":{"url":"http://a.example/gone"}}`)},
		{SentinelID: site.ID, ResourceID: start.ID, ToVersion: 2, DetectedAt: t0.Add(time.Hour), Records: records(
			fmt.Sprintf(`{"op":"update","kind":"page","page":{"url":%q,"resourceId":%d}}`, guide.URL, guide.ID),
			fmt.Sprintf(`{"op":"delete","kind":"page","page":{"url":%q}}`, faq.URL),
			fmt.Sprintf(`{"op":"delete","kind":"page","page":{"url":%q}}`, faq.URL),
			fmt.Sprintf(`{"op":"insert","kind":"page","page":{"url":%q}}`, guide.URL))},
		{SentinelID: page.ID, ResourceID: other.ID, FromVersion: 1, ToVersion: 2, DetectedAt: t0, Records: records(`{"op":"insert","kind":"text"}`)},
		{SentinelID: page.ID, ResourceID: other.ID, FromVersion: 2, ToVersion: 3, DetectedAt: t0, Records: json.RawMessage(`{"page":{"url":"http://c.example/"}}`)},
	}
	for _, c := range changes {
		must(t, s.CreateChange(ctx, c))
	}
	sp := func(sen *vigil.Sentinel, url string, id int64) vigil.ChangePage {
		return vigil.ChangePage{SentinelID: sen.ID, URL: url, ResourceID: id}
	}
	for _, tc := range []struct {
		name string
		f    vigil.ChangePageFilter
		want []vigil.ChangePage
	}{
		{"site", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}}, []vigil.ChangePage{sp(site, "", start.ID),
			sp(site, guide.URL, guide.ID), sp(site, guide.URL, 0), sp(site, "http://a.example/gone", 0), sp(site, faq.URL, 0)}},
		{"page", vigil.ChangePageFilter{SentinelIDs: []int64{page.ID}}, []vigil.ChangePage{sp(page, "", other.ID)}},
		{"none", vigil.ChangePageFilter{}, nil},
		{"by id", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID, page.ID}, ResourceID: guide.ID}, []vigil.ChangePage{sp(site, guide.URL, guide.ID)}},
		{"by URL", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID, page.ID}, URL: faq.URL}, []vigil.ChangePage{sp(site, faq.URL, 0)}},
		{"by id and URL", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}, ResourceID: guide.ID, URL: guide.URL},
			[]vigil.ChangePage{sp(site, guide.URL, guide.ID), sp(site, guide.URL, 0)}},
		{"by id or URL", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID, page.ID}, ResourceID: other.ID, URL: faq.URL},
			[]vigil.ChangePage{sp(page, "", other.ID), sp(site, faq.URL, 0)}},
		{"recorded on", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}, ResourceID: start.ID}, []vigil.ChangePage{sp(site, "", start.ID)}},
		{"other sentinel's", vigil.ChangePageFilter{SentinelIDs: []int64{page.ID}, ResourceID: guide.ID}, nil},
		{"not named", vigil.ChangePageFilter{SentinelIDs: []int64{site.ID, page.ID}, URL: "http://c.example/"}, nil},
	} {
		got, err := s.FindChangePages(ctx, tc.f)
		must(t, err)
		if !samePages(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if got, err := s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}, Limit: 2}); err != nil || len(got) != 2 {
		t.Errorf("limit 2: %+v, %v", got, err)
	}
	// The changes go with the resource they are recorded on, and their
	// pages with them.
	must(t, s.DeleteResource(ctx, start.ID))
	if got, err := s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{site.ID, page.ID}}); err != nil ||
		!samePages(got, []vigil.ChangePage{sp(page, "", other.ID)}) {
		t.Errorf("after the site's changes went: %+v, %v", got, err)
	}
	must(t, s.DeleteSentinel(ctx, page.ID))
	if got, err := s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{page.ID}}); err != nil || len(got) != 0 {
		t.Errorf("after the sentinel went: %+v, %v", got, err)
	}
}

// testChangePagesOddURLs: the pages a change lists are indexed whatever
// their URLs as written: long ones (a signed link of thousands of random
// characters, past what a PostgreSQL index entry holds), and ones with
// characters that sort or compare oddly. Each is listed once and found by
// its URL, and no other URL finds it.
func testChangePagesOddURLs(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	site := &vigil.Sentinel{OwnerID: u.ID, Name: "site", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, site))
	start, err := s.EnsureResource(ctx, "http://a.example/")
	must(t, err)
	var long []byte // 3,000 bytes no compression shortens
	for h := sha256.Sum256(nil); len(long) < 3000; h = sha256.Sum256(h[:]) {
		long = append(long, h[:]...)
	}
	urls := []string{
		"http://a.example/file.pdf?sig=" + hex.EncodeToString(long),
		"http://a.example/file.pdf?sig=" + hex.EncodeToString(long[:2999]),
		"http://a.example/caf\u00e9 d'\"x\"%20",
		"http://a.example/CAFÉ",
		"http://a.example/café",
		"http://a.example/cafe\u0301",
		"http://a.example/a\tb",
	}
	var recs []string
	for _, url := range urls {
		b, err := json.Marshal(url)
		must(t, err)
		recs = append(recs, `{"op":"delete","kind":"page","page":{"url":`+string(b)+`}}`)
	}
	for i := 0; i < 2; i++ { // the same pages twice
		must(t, s.CreateChange(ctx, &vigil.Change{SentinelID: site.ID, ResourceID: start.ID, ToVersion: int64(i + 1), DetectedAt: t0,
			Records: json.RawMessage("[" + strings.Join(recs, ",") + "]")}))
	}
	got, err := s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}})
	must(t, err)
	wantAll := []vigil.ChangePage{{SentinelID: site.ID, ResourceID: start.ID}}
	for _, url := range urls {
		wantAll = append(wantAll, vigil.ChangePage{SentinelID: site.ID, URL: url})
	}
	if !samePages(got, wantAll) {
		t.Errorf("pages: %d %+.80v, want %d", len(got), got, len(wantAll))
	}
	for _, p := range wantAll[1:] {
		got, err := s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}, URL: p.URL})
		must(t, err)
		if !samePages(got, []vigil.ChangePage{p}) {
			t.Errorf("by URL %.60q: %+.80v", p.URL, got)
		}
	}
	got, err = s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{site.ID}, URL: "http://a.example/cafe"})
	must(t, err)
	if len(got) != 0 {
		t.Errorf("by a URL no change lists: %+v", got)
	}
}

// samePages reports whether a and b hold the same pages, in any order.
func samePages(a, b []vigil.ChangePage) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[vigil.ChangePage]int{}
	for _, p := range a {
		count[p]++
	}
	for _, p := range b {
		if count[p]--; count[p] < 0 {
			return false
		}
	}
	return true
}
