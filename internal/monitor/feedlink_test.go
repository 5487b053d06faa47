package monitor

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/spec"
)

// rotatingFetcher serves body, and rotates a sentinel's feed while its
// page is being fetched, as its owner's click on "Replace feed link" does
// during a check (which may last HostWait + TotalTimeout per page).
type rotatingFetcher struct {
	body   string
	rotate func()
}

func (f *rotatingFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	if f.rotate != nil {
		f.rotate()
	}
	return &vigil.FetchResult{URL: req.URL, Status: 200, ContentType: "text/html", Charset: "utf-8",
		Body: []byte(f.body), FetchedAt: time.Now()}, nil
}

// TestMessageLinkAfterRotation: a message written after the feed was
// rotated links to the new feed; given the sentinel as claimed, before the
// rotation, MessageLink linked to the revoked one (404).
func TestMessageLinkAfterRotation(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	now := time.Now().UTC()
	s := createSentinel(t, db, spec.NewChecker(now), u, "news", `Create Sentinel news Using http://example.test/news
Monitor any change
Fetch 1 hour
Notify By email owner@example.test`)
	f := &rotatingFetcher{body: `<html><body><p>one</p></body></html>`}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f,
		MessageLink: func(s *vigil.Sentinel) string {
			return fmt.Sprintf("https://vigil.test/feeds/%d/gen%d/atom.xml", s.ID, s.FeedGeneration)
		}}
	runOnce(t, m, 1)
	f.body = `<html><body><p>two</p></body></html>`
	f.rotate = func() {
		if _, err := db.RotateSentinelFeed(ctx, s.ID); err != nil {
			t.Error(err)
		}
		f.rotate = nil
	}
	makeDue(t, db, s, time.Now().UTC())
	runOnce(t, m, 1)
	msgs := messagesOf(t, db, u, s)
	if len(msgs) == 0 {
		t.Fatal("no message")
	}
	last := msgs[len(msgs)-1]
	if !strings.Contains(last.Text, "/gen1/") {
		t.Errorf("message written after the rotation links to a revoked feed:\n%s", last.Text)
	}
}

// TestMessageLinkContactsEdited: a check claimed before its sentinel was
// edited sends its messages to the contacts it was claimed with; if the
// edit removed one of them and the owner then replaced the feed link (to
// revoke the one that contact knew), the message must not hand the new
// link to the removed contact. It did: the link was read as the sentinel
// is when the message is written, the recipients as it was claimed.
func TestMessageLinkContactsEdited(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	now := time.Now().UTC()
	checker := spec.NewChecker(now)
	const src = "Create Sentinel news Using http://example.test/news\nMonitor any change\nFetch 1 hour\n"
	s := createSentinel(t, db, checker, u, "news", src+"Notify By email owner@example.test, gone@example.test")
	f := &rotatingFetcher{body: `<html><body><p>one</p></body></html>`}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f,
		MessageLink: func(s *vigil.Sentinel) string {
			return fmt.Sprintf("https://vigil.test/feeds/%d/gen%d/atom.xml", s.ID, s.FeedGeneration)
		}}
	runOnce(t, m, 1)
	f.body = `<html><body><p>two</p></body></html>`
	f.rotate = func() {
		f.rotate = nil
		// The owner removes gone@example.test, then replaces the feed link.
		if err := editThenRotate(ctx, t, db, checker, u, s, src+"Notify By email owner@example.test"); err != nil {
			t.Error(err)
		}
	}
	makeDue(t, db, s, time.Now().UTC())
	runOnce(t, m, 1)
	ns, _, err := db.FindNotifications(ctx, vigil.NotificationFilter{UserID: u.ID})
	if err != nil {
		t.Fatal(err)
	}
	sentToGone := false
	for _, n := range ns {
		if n.Target != "gone@example.test" {
			continue
		}
		sentToGone = true
		if strings.Contains(string(n.Payload), "/gen1/") {
			t.Errorf("the removed contact is given the replaced feed link:\n%s", n.Payload)
		}
	}
	if !sentToGone {
		t.Fatal("no message to the contact of the claimed sentinel: the test no longer shows the case")
	}
}

// editThenRotate edits sentinel s to source src (checked by checker, through
// a scratch sentinel of u's deleted after) and then replaces its feed link,
// as an owner does who removes a contact and revokes the link it knew.
func editThenRotate(ctx context.Context, t *testing.T, db *sqlite.DB, checker *spec.Checker, u *vigil.User, s *vigil.Sentinel, src string) error {
	edited := createSentinel(t, db, checker, u, "scratch", src)
	cur, err := db.FindSentinelByID(ctx, s.ID)
	if err != nil {
		return err
	}
	cur.Source, cur.Spec = edited.Source, edited.Spec
	if err := db.UpdateSentinel(ctx, cur); err != nil {
		return err
	}
	if err := db.DeleteSentinel(ctx, edited.ID); err != nil {
		return err
	}
	_, err = db.RotateSentinelFeed(ctx, s.ID)
	return err
}

// TestDeliverCurrentFeedLink: messages queued before their sentinel's feed
// link was replaced are delivered with the link as it is at delivery: the
// new one to a contact the sentinel still notifies, none to a contact an
// edit removed before the replacement, and the replaced one, revoked, to
// neither. They were delivered with the link they were written with.
func TestDeliverCurrentFeedLink(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	now := time.Now().UTC()
	checker := spec.NewChecker(now)
	const src = "Create Sentinel news Using http://example.test/news\nMonitor any change\nFetch 1 hour\n"
	s := createSentinel(t, db, checker, u, "news", src+"Notify By email owner@example.test, gone@example.test")
	link := func(s *vigil.Sentinel) string {
		return fmt.Sprintf("https://vigil.test/feeds/%d/gen%d/atom.xml", s.ID, s.FeedGeneration)
	}
	f := &rotatingFetcher{body: `<html><body><p>one</p></body></html>`}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, MessageLink: link,
		DashboardLink: func(id int64) string { return fmt.Sprintf("https://vigil.test/sentinels/%d", id) }}
	runOnce(t, m, 1)
	f.body = `<html><body><p>two</p></body></html>`
	makeDue(t, db, s, time.Now().UTC())
	runOnce(t, m, 1)
	queued := messagesOf(t, db, u, s)
	if len(queued) != 2 || !strings.Contains(queued[0].Text, "/gen0/") || queued[0].FeedLink == "" {
		t.Fatalf("want 2 messages queued with the gen0 feed link, got %d: %+v", len(queued), queued)
	}

	// The owner removes gone@example.test, then replaces the feed link.
	if err := editThenRotate(ctx, t, db, checker, u, s, src+"Notify By email owner@example.test"); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	got := map[string]*vigil.Message{}
	d := &Deliverer{Store: db, Sentinels: db, MessageLink: link, Channels: map[string]vigil.Notifier{
		"email": vigil.NotifierFunc(func(_ context.Context, target string, msg *vigil.Message) error {
			mu.Lock()
			defer mu.Unlock()
			got[target] = msg
			return nil
		})},
		Now: func() time.Time { return time.Now().Add(time.Minute) }} // the messages are due by then

	if _, err := d.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		target string
		feed   string // the feed link delivered, "" for none
	}{
		{"owner@example.test", fmt.Sprintf("https://vigil.test/feeds/%d/gen1/atom.xml", s.ID)},
		{"gone@example.test", ""},
	} {
		msg := got[tc.target]
		if msg == nil {
			t.Errorf("%s: nothing delivered", tc.target)
			continue
		}
		if msg.FeedLink != tc.feed {
			t.Errorf("%s: FeedLink %q, want %q", tc.target, msg.FeedLink, tc.feed)
		}
		for part, body := range map[string]string{"text": msg.Text, "HTML": msg.HTML} {
			if strings.Contains(body, "/gen0/") {
				t.Errorf("%s: the %s carries the replaced feed link:\n%s", tc.target, part, body)
			}
			if !strings.Contains(body, fmt.Sprintf("https://vigil.test/sentinels/%d", s.ID)) {
				t.Errorf("%s: the %s lost its dashboard link:\n%s", tc.target, part, body)
			}
			hasFeed := strings.Contains(body, "/gen1/") && strings.Contains(body, "All changes of news")
			if hasFeed != (tc.feed != "") {
				t.Errorf("%s: the %s links to the current feed: %v, want %v:\n%s", tc.target, part, hasFeed, tc.feed != "", body)
			}
		}
		if tc.feed == "" && strings.Contains(msg.HTML, footerSeparator+"</p>") {
			t.Errorf("%s: the HTML footer keeps a separator with no link after it:\n%s", tc.target, msg.HTML)
		}
	}
}

// TestReplaceFeedLink: the feed link of a message's footer is replaced,
// or removed with its line and its HTML link, whatever else the footer
// holds, and no copy of the old one is left.
func TestReplaceFeedLink(t *testing.T) {
	const old, cur = "https://vigil.test/feeds/7/old&tok/atom.xml", "https://vigil.test/feeds/7/new&tok/atom.xml"
	for _, tc := range []struct {
		name      string
		dashboard bool
		feed      string
		text      string
		html      string
	}{
		{"replaced", true, cur,
			"body\n\nOn the dashboard: https://vigil.test/sentinels/7\nAll changes of news, as a feed: " + cur + "\n",
			`<p>body</p><p><a href="https://vigil.test/sentinels/7">See news on the dashboard</a> · <a href="https://vigil.test/feeds/7/new&amp;tok/atom.xml">All changes of news (feed)</a></p>` + "\n"},
		{"removed after the dashboard's link", true, "",
			"body\n\nOn the dashboard: https://vigil.test/sentinels/7\n",
			`<p>body</p><p><a href="https://vigil.test/sentinels/7">See news on the dashboard</a></p>` + "\n"},
		{"removed, the footer's only link", false, "",
			"body\n\n",
			"<p>body</p>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, markup := "body\n\n", "<p>body</p>"
			links := []string{}
			if tc.dashboard {
				text += "On the dashboard: https://vigil.test/sentinels/7\n"
				links = append(links, `<a href="https://vigil.test/sentinels/7">See news on the dashboard</a>`)
			}
			text += feedLine("news", old)
			links = append(links, feedAnchor("news", old))
			markup += "<p>" + strings.Join(links, footerSeparator) + "</p>\n"
			msg := &vigil.Message{SentinelName: "news", Text: text, HTML: markup, FeedLink: old}
			replaceFeedLink(msg, tc.feed)
			if msg.Text != tc.text || msg.HTML != tc.html || msg.FeedLink != tc.feed {
				t.Errorf("got\n%q\n%q\n%q\nwant\n%q\n%q\n%q", msg.Text, msg.HTML, msg.FeedLink, tc.text, tc.html, tc.feed)
			}
		})
	}
}
