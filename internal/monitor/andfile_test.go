package monitor

import (
	"bytes"
	"context"
	"errors"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// filesServer serves pages on loopback, each an HTML page or a binary
// file (application/octet-stream) as the test sets it.
type filesServer struct {
	mu    sync.Mutex
	body  map[string][]byte
	files map[string]bool
}

func (s *filesServer) set(path string, body []byte, file bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.body[path], s.files[path] = body, file
}

func (s *filesServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	body, file := s.body[r.URL.Path], s.files[r.URL.Path]
	s.mu.Unlock()
	if body == nil {
		http.NotFound(w, r)
		return
	}
	if file {
		w.Header().Set("Content-Type", "application/octet-stream")
	} else {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	}
	io.Copy(w, bytes.NewReader(body))
}

// filePages is a sentinel of any change on pages of a filesServer, with
// the real fetcher and a store of one backend (onEachStore), its clock
// set by the test.
type filePages struct {
	t     *testing.T
	srv   *filesServer
	base  string
	m     *Monitor
	db    backendStore
	u     *vigil.User     // the sentinel's owner
	s     *vigil.Sentinel // the sentinel
	clock time.Time
}

func newFilePages(t *testing.T, open storeOpener, using, clauses string) *filePages {
	t.Helper()
	return newFilePagesMonitoring(t, open, using, "any change", clauses)
}

// newFilePagesMonitoring is newFilePages with a sentinel that monitors
// expr.
func newFilePagesMonitoring(t *testing.T, open storeOpener, using, expr, clauses string) *filePages {
	t.Helper()
	return newFilePagesSource(t, open, using, "Monitor "+expr+" "+clauses+" Notify By email owner@example.test")
}

// newFilePagesSource is newFilePages with a sentinel whose source, after
// its Using clause, is rest (a Notify clause to the owner's address).
func newFilePagesSource(t *testing.T, open storeOpener, using, rest string) *filePages {
	t.Helper()
	p := &filePages{t: t, srv: &filesServer{body: map[string][]byte{}, files: map[string]bool{}}, clock: time.Now().UTC().Truncate(time.Minute)}
	hs := httptest.NewServer(p.srv)
	t.Cleanup(hs.Close)
	p.base = hs.URL
	p.db = open(t)
	p.u = &vigil.User{Email: "owner@example.test", Name: "owner"}
	if err := p.db.CreateUser(context.Background(), p.u); err != nil {
		t.Fatal(err)
	}
	p.s = createSentinel(t, p.db, spec.NewChecker(p.clock), p.u, "pages",
		"Create Sentinel pages Using "+strings.ReplaceAll(using, "URL", hs.URL)+" "+rest+"\n")
	p.m = &Monitor{Store: p.db, Warehouse: newWarehouse(t, p.db), Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
		Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return p.clock }}
	return p
}

// check runs a check at the clock moved on by d (the first at once).
func (p *filePages) check(d time.Duration) {
	p.t.Helper()
	p.clock = p.clock.Add(d)
	makeDue(p.t, p.db, p.s, p.clock)
	runOnce(p.t, p.m, 1)
}

// messages returns the messages queued for the sentinel.
func (p *filePages) messages() []*vigil.Message {
	p.t.Helper()
	return messagesOf(p.t, p.db, p.u, p.s)
}

// subjects returns the subjects of the messages of the sentinel, and the
// summaries of its changes, each on its page ("/a: summary"), sorted.
func (p *filePages) told() (subjects, changes []string) {
	p.t.Helper()
	for _, msg := range p.messages() {
		subjects = append(subjects, strings.TrimPrefix(msg.Subject, "[Vigil] pages: "))
	}
	for _, c := range changesOf(p.t, p.db, p.s) {
		r, err := p.db.FindResourceByID(context.Background(), c.ResourceID)
		if err != nil {
			p.t.Fatal(err)
		}
		changes = append(changes, strings.TrimPrefix(r.URL, p.base)+": "+c.Summary)
	}
	slices.Sort(changes)
	return subjects, changes
}

const fileSummary = "the page turned into a file Vigil does not read (application/octet-stream, 4096 bytes)"

// TestUsingAndFile: with "Using A AND B", A turning into a file (a PDF,
// an image: binarypage.go) waits for B's change as a change of A's text
// does, and is told with it, in one message; so is its turning back into
// a page. Before, the file's change was told at once, alone, as if A
// alone were enough.
func TestUsingAndFile(t *testing.T) {
	onEachStore(t, func(t *testing.T, open storeOpener) {
		p := newFilePages(t, open, "URL/a AND URL/b", "Fetch 1 hour")
		file := bytes.Repeat([]byte{0, 1, 2, 3}, 1024)
		p.srv.set("/a", []byte(pageWith("a0")), false)
		p.srv.set("/b", []byte(pageWith("b0")), false)
		p.check(0)
		p.srv.set("/a", file, true)
		p.check(time.Hour)
		if subjects, changes := p.told(); len(subjects) != 0 || len(changes) != 0 {
			t.Fatalf("A turned into a file, B unchanged: told %q, changes %q; want nothing (A's change waits for B's)", subjects, changes)
		}
		p.srv.set("/b", []byte(pageWith("b1")), false)
		p.check(time.Hour)
		subjects, changes := p.told()
		if want := []string{"/a: " + fileSummary, "/b: any change: 1 text changed"}; !slices.Equal(changes, want) {
			t.Errorf("B changed too: changes %q, want %q", changes, want)
		}
		if len(subjects) != 1 || !strings.Contains(subjects[0], fileSummary) || !strings.Contains(subjects[0], "1 text changed") {
			t.Errorf("B changed too: messages %q, want one telling both", subjects)
		}
		if msgs := p.messages(); len(msgs) == 1 && !strings.Contains(msgs[0].Text, "application/octet-stream is not a text document (4096 bytes, ") {
			t.Errorf("the message does not say why the file is not read:\n%s", msgs[0].Text)
		}

		p.srv.set("/a", []byte(pageWith("a0")), false)
		p.check(time.Hour)
		if subjects, _ := p.told(); len(subjects) != 1 {
			t.Fatalf("A turned back into a page, B unchanged: messages %q, want the first only", subjects)
		}
		p.srv.set("/b", []byte(pageWith("b2")), false)
		p.check(time.Hour)
		subjects, _ = p.told()
		if len(subjects) != 2 || !strings.Contains(subjects[1], "the file turned back into a page") || !strings.Contains(subjects[1], "1 text changed") {
			t.Errorf("B changed again: messages %q, want a second telling A back and B's change", subjects)
		}
	})
}

// TestConfirmFile: a sentinel whose changes are confirmed ("Confirm
// after") confirms a page turning into a file as it confirms a change of
// its text: told only if the page still answers a file at the
// confirmation, and not at all if it answers the page it was. Before,
// the file's change was told at once, unconfirmed.
func TestConfirmFile(t *testing.T) {
	onEachStore(t, func(t *testing.T, open storeOpener) {
		file := bytes.Repeat([]byte{0, 1, 2, 3}, 1024)
		for _, back := range []bool{false, true} {
			name := map[bool]string{false: "still a file", true: "a page again"}[back]
			t.Run(name, func(t *testing.T) {
				p := newFilePages(t, open, "URL/a", "Fetch 1 hour Confirm after 10 minute")
				p.srv.set("/a", []byte(pageWith("a0")), false)
				p.check(0)
				p.srv.set("/a", file, true)
				p.check(time.Hour)
				if subjects, changes := p.told(); len(subjects) != 0 || len(changes) != 0 {
					t.Fatalf("turned into a file: told %q, changes %q before its confirmation; want nothing", subjects, changes)
				}
				if back {
					p.srv.set("/a", []byte(pageWith("a0")), false)
				}
				p.check(10 * time.Minute)
				subjects, changes := p.told()
				want := []string{"/a: " + fileSummary}
				if back {
					want = nil
				}
				if !slices.Equal(changes, want) || len(subjects) != len(want) {
					t.Errorf("at the confirmation (%s): told %q, changes %q; want changes %q, as many messages", name, subjects, changes, want)
				}
			})
		}
	})
}

// failingVersionRead is a store whose FindVersionByID fails once for
// version id, once armed: a store read that fails for that one call.
type failingVersionRead struct {
	Store
	mu     sync.Mutex
	id     int64
	armed  bool
	failed bool
}

func (f *failingVersionRead) FindVersionByID(ctx context.Context, id int64) (*vigil.Version, error) {
	f.mu.Lock()
	fail := f.armed && id == f.id
	if fail {
		f.armed, f.failed = false, true
	}
	f.mu.Unlock()
	if fail {
		return nil, errors.New("the store is away")
	}
	return f.Store.FindVersionByID(ctx, id)
}

// TestUsingAndFileReadFails: with "Using A AND B", A whose text changed,
// then turned into a file, both waiting for B: a store read that fails
// while the file's change is judged, at the check where B changes, keeps
// the whole alternative waiting, and the next check tells the file's
// change with B's in one message (A's text change, of a text A no longer
// has, waits for A to be a page again: TestUsingAndFileNow). Before, A's
// text change alone was enough for A to count as changed: A's text and
// B's changes were told without the file's, whose waiting change was then
// dropped, never told.
func TestUsingAndFileReadFails(t *testing.T) {
	onEachStore(t, func(t *testing.T, open storeOpener) {
		p := newFilePages(t, open, "URL/a AND URL/b", "Fetch 1 hour")
		store := &failingVersionRead{Store: p.db}
		p.m.Store = store
		p.srv.set("/a", []byte(pageWith("a0")), false)
		p.srv.set("/b", []byte(pageWith("b0")), false)
		p.check(0)
		p.srv.set("/a", []byte(pageWith("a1")), false)
		p.check(time.Hour)
		p.srv.set("/a", bytes.Repeat([]byte{0, 1, 2, 3}, 1024), true)
		p.check(time.Hour)
		_, file, err := p.db.LatestVersionByURL(context.Background(), p.base+"/a")
		if err != nil || !file.Binary() {
			t.Fatalf("A's newest version %+v, %v; want its file", file, err)
		}
		store.mu.Lock()
		store.id, store.armed = file.ID, true
		store.mu.Unlock()
		p.srv.set("/b", []byte(pageWith("b1")), false)
		p.check(time.Hour)
		if !store.failed {
			t.Fatal("the file's version was not read at the check where B changed")
		}
		p.check(time.Hour)
		subjects, changes := p.told()
		want := []string{"/a: " + fileSummary, "/b: any change: 1 text changed"}
		if !slices.Equal(changes, want) {
			t.Errorf("after a failed read, then a check: changes %q, want %q", changes, want)
		}
		if len(subjects) != 1 || !strings.Contains(subjects[0], fileSummary) {
			t.Errorf("after a failed read, then a check: messages %q, want one telling the file's change with the others", subjects)
		}
	})
}

// fileLines returns what a message says of a page's change into a file
// whose summary is summary, in its text and its HTML, without the page it
// names when several changed (" on URL") nor its time: "" for a message
// that does not say it so.
func fileLines(msg *vigil.Message, summary string) (text, markup string) {
	t := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(summary) + `(?: on \S+)? \([^)]+\)\n(.*)\n`).FindStringSubmatch(msg.Text)
	h := regexp.MustCompile(`<h3>` + regexp.QuoteMeta(html.EscapeString(summary)) + `(?: on [^<]*)? <small>[^<]*</small></h3>\n(<p>[^<]*</p>)\n`).FindStringSubmatch(msg.HTML)
	if t != nil {
		text = summary + "\n" + t[1]
	}
	if h != nil {
		markup = html.EscapeString(summary) + "\n" + h[1]
	}
	return text, markup
}

// TestFileChangeWording: a page's change into a file reads the same in
// the message that tells it alone ("Using A") as in the one that tells it
// with the other pages' changes ("Using A AND B"): its summary, then why
// the file is not read. Before, the message alone was another, "Sentinel
// pages: URL: summary.".
func TestFileChangeWording(t *testing.T) {
	onEachStore(t, func(t *testing.T, open storeOpener) {
		file := bytes.Repeat([]byte{0, 1, 2, 3}, 1024)
		told := func(using string, others bool) *vigil.Message {
			t.Helper()
			p := newFilePages(t, open, using, "Fetch 1 hour")
			p.srv.set("/a", []byte(pageWith("a0")), false)
			p.srv.set("/b", []byte(pageWith("b0")), false)
			p.check(0)
			p.srv.set("/a", file, true)
			if others {
				p.srv.set("/b", []byte(pageWith("b1")), false)
			}
			p.check(time.Hour)
			msgs := p.messages()
			if len(msgs) != 1 {
				t.Fatalf("Using %s: %d messages, want 1", using, len(msgs))
			}
			// The two sentinels' servers differ by their port.
			msgs[0].Text, msgs[0].HTML = strings.ReplaceAll(msgs[0].Text, p.base, "URL"), strings.ReplaceAll(msgs[0].HTML, p.base, "URL")
			return msgs[0]
		}
		alone, together := told("URL/a", false), told("URL/a AND URL/b", true)
		aloneText, aloneHTML := fileLines(alone, fileSummary)
		togetherText, togetherHTML := fileLines(together, fileSummary)
		if togetherText == "" || togetherHTML == "" {
			t.Fatalf("told with B's change, the message does not say A's:\n%s\n%s", together.Text, together.HTML)
		}
		if !strings.Contains(togetherText, "application/octet-stream is not a text document (4096 bytes, ") {
			t.Errorf("told with B's change, the message does not say why the file is not read: %q", togetherText)
		}
		if aloneText != togetherText || aloneHTML != togetherHTML {
			t.Errorf("told alone, the file's change reads\n%s\n%s\nwant, as told with B's change,\n%s\n%s", alone.Text, alone.HTML, togetherText, togetherHTML)
		}
	})
}

// TestFileBackConfirmed: a page that turned into a file, for a sentinel
// whose changes are confirmed ("Confirm after"), turns back into another
// page than it was before the file. At the confirmation, the sentinel is
// told that the file turned back into a page and what changed in the
// page's text since before the file, both at once: alone in two messages,
// as a sentinel that confirms nothing is told them at once, and with
// "Using A AND B", B's change waiting, in one message with B's. Before,
// the text's change was confirmed only after the file's, one
// confirmation later: the message of "Using A AND B" told only that the
// file turned back into a page, and A's text change waited for B's next.
func TestFileBackConfirmed(t *testing.T) {
	const back = "the file turned back into a page"
	for _, tc := range []struct {
		name, using string
		want        []string // the subjects of the messages told at the confirmation
	}{
		{"alone", "URL/a", []string{back, "any change: 1 text changed"}},
		{"and", "URL/a AND URL/b", []string{"HOST/a: " + back + "; HOST/a: any change: 1 text changed; HOST/b: any change: 1 text changed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			onEachStore(t, func(t *testing.T, open storeOpener) {
				p := newFilePages(t, open, tc.using, "Fetch 1 hour Confirm after 10 minute")
				p.srv.set("/a", []byte(pageWith("a0")), false)
				p.srv.set("/b", []byte(pageWith("b0")), false)
				p.check(0)
				_, a0, err := p.db.LatestVersionByURL(context.Background(), p.base+"/a")
				if err != nil {
					t.Fatal(err)
				}
				p.srv.set("/a", bytes.Repeat([]byte{0, 1, 2, 3}, 1024), true)
				p.srv.set("/b", []byte(pageWith("b1")), false)
				p.check(time.Hour)
				p.check(10 * time.Minute) // A's file confirmed; B's change confirmed after it
				p.check(10 * time.Minute)
				p.srv.set("/b", []byte(pageWith("b2")), false)
				p.check(time.Hour)
				p.check(10 * time.Minute) // B's change confirmed, waiting for A's
				if _, file, err := p.db.LatestVersionByURL(context.Background(), p.base+"/a"); err != nil || !file.Binary() {
					t.Fatalf("A's newest version %+v, %v; want its file", file, err)
				}
				before, _ := p.told()
				p.srv.set("/a", []byte(pageWith("a1")), false)
				p.check(time.Hour)
				if subjects, _ := p.told(); len(subjects) != len(before) {
					t.Fatalf("A turned back into another page: told %q before the confirmation", subjects[len(before):])
				}
				p.check(10 * time.Minute)
				subjects, _ := p.told()
				want := slices.Clone(tc.want)
				for i := range want {
					want[i] = strings.ReplaceAll(want[i], "HOST", strings.TrimPrefix(p.base, "http://"))
				}
				if got := subjects[len(before):]; !slices.Equal(got, want) {
					t.Errorf("at the confirmation of A's turning back: told %q, want %q", got, want)
				}
				var text *vigil.Change
				for _, c := range changesOf(t, p.db, p.s) {
					if c.Summary == "any change: 1 text changed" && strings.Contains(string(c.Records), "a1") {
						text = c
					}
				}
				if text == nil {
					t.Fatal("A's text change is not stored")
				}
				if text.FromVersion != a0.ID {
					t.Errorf("A's text change from version %d, want %d, the page before the file", text.FromVersion, a0.ID)
				}
			})
		})
	}
}

// TestFileChangeNoEmptyList: a message telling a page's change from or to
// a file, which lists no records, has no empty list in its HTML (nor, in
// its text, an empty line where the records would be), alone ("Using A")
// as with the other pages' changes ("Using A AND B"). Before, each such
// change was followed by "<ul>\n</ul>".
func TestFileChangeNoEmptyList(t *testing.T) {
	emptyText := regexp.MustCompile(`\n[ \t]*\n[ \t]*\n|\n[ \t]+\n`)
	for _, using := range []string{"URL/a", "URL/a AND URL/b"} {
		t.Run(using, func(t *testing.T) {
			onEachStore(t, func(t *testing.T, open storeOpener) {
				p := newFilePages(t, open, using, "Fetch 1 hour")
				p.srv.set("/a", []byte(pageWith("a0")), false)
				p.srv.set("/b", []byte(pageWith("b0")), false)
				p.check(0)
				p.srv.set("/a", bytes.Repeat([]byte{0, 1, 2, 3}, 1024), true)
				p.srv.set("/b", []byte(pageWith("b1")), false)
				p.check(time.Hour)
				p.srv.set("/a", []byte(pageWith("a0")), false)
				p.srv.set("/b", []byte(pageWith("b2")), false)
				p.check(time.Hour)
				msgs := p.messages()
				if len(msgs) != 2 {
					t.Fatalf("%d messages, want 2: into the file and back", len(msgs))
				}
				for _, msg := range msgs {
					if regexp.MustCompile(`<ul>\s*</ul>`).MatchString(msg.HTML) {
						t.Errorf("message %q: an empty list in its HTML:\n%s", msg.Subject, msg.HTML)
					}
					if emptyText.MatchString(msg.Text) {
						t.Errorf("message %q: an empty line in its text:\n%q", msg.Subject, msg.Text)
					}
					if !strings.Contains(msg.HTML, "<li>") != (using == "URL/a") {
						t.Errorf("message %q: HTML lists %v records, want B's only:\n%s", msg.Subject, strings.Contains(msg.HTML, "<li>"), msg.HTML)
					}
				}
			})
		})
	}
}

// TestUsingAndSubjectNamesPages: the subject of a message telling the
// changes of several pages together ("Using A AND B") names the page of
// each (its host and path), so that two alike ("any change: 1 text
// changed") can be told apart from the subject alone; a sentinel's
// message on one page names none, as before. Before, the subject was
// "any change: 1 text changed; any change: 1 text changed".
func TestUsingAndSubjectNamesPages(t *testing.T) {
	file := bytes.Repeat([]byte{0, 1, 2, 3}, 1024)
	for _, tc := range []struct {
		name, using string
		aFile       bool   // A turns into a file, not into another page
		want        string // the subject after "[Vigil] pages: ", HOST the server's
	}{
		{"and", "URL/a AND URL/b", false, "HOST/a: any change: 1 text changed; HOST/b: any change: 1 text changed"},
		{"and, a file", "URL/a AND URL/b", true, "HOST/a: " + fileSummary + "; HOST/b: any change: 1 text changed"},
		{"one page", "URL/a", false, "any change: 1 text changed"},
		{"one page, a file", "URL/a", true, fileSummary},
	} {
		t.Run(tc.name, func(t *testing.T) {
			onEachStore(t, func(t *testing.T, open storeOpener) {
				p := newFilePages(t, open, tc.using, "Fetch 1 hour")
				p.srv.set("/a", []byte(pageWith("a0")), false)
				p.srv.set("/b", []byte(pageWith("b0")), false)
				p.check(0)
				if tc.aFile {
					p.srv.set("/a", file, true)
				} else {
					p.srv.set("/a", []byte(pageWith("a1")), false)
				}
				p.srv.set("/b", []byte(pageWith("b1")), false)
				p.check(time.Hour)
				msgs := p.messages()
				if len(msgs) != 1 {
					t.Fatalf("%d messages, want 1", len(msgs))
				}
				want := "[Vigil] pages: " + strings.ReplaceAll(tc.want, "HOST", strings.TrimPrefix(p.base, "http://"))
				if msgs[0].Subject != want {
					t.Errorf("subject %q, want %q", msgs[0].Subject, want)
				}
			})
		})
	}
}

// TestUsingAndFileNow: with "Using A AND B", the message tells A as it is
// when the message is sent: the net change of A from what the previous
// message told of it. A that is a file now is told as one (turned into a
// file, or its file changed), not by the change of a text it had for a
// while in between and no longer has; that text's change waits until A
// is a page again and is then told from the text told before. A that
// went back to the file it was told as (file, another page, the same
// file) has no change, as a page that went back to its text has none:
// B's change waits. A sentinel on A alone is told each step. Before, the
// message told "A: 1 text changed" (a0 -> a1) while A was the file again,
// and nothing said so.
func TestUsingAndFileNow(t *testing.T) {
	const (
		file4 = "the page turned into a file Vigil does not read (application/octet-stream, 4096 bytes)"
		file8 = "the file changed (application/octet-stream, 8192 bytes)"
		back  = "the file turned back into a page"
		text  = "any change: 1 text changed"
	)
	type step struct {
		a    string // A's page text, or "file4", "file8": a file of 4096, 8192 bytes
		b    string // B's page text
		told string // the subject of the message told at the step's check, "" for none
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"the same file again", []step{
			{"file4", "b1", "HOST/a: " + file4 + "; HOST/b: " + text},
			{"a1", "b1", ""},
			{"file4", "b1", ""},
			{"file4", "b2", ""}, // A as told: B waits
			{"a2", "b2", "HOST/a: " + back + "; HOST/a: " + text + "; HOST/b: " + text},
		}},
		{"another file", []step{
			{"file4", "b1", "HOST/a: " + file4 + "; HOST/b: " + text},
			{"a1", "b1", ""},
			{"file8", "b1", ""},
			{"file8", "b2", "HOST/a: " + file8 + "; HOST/b: " + text},
			{"a1", "b3", "HOST/a: " + back + "; HOST/a: " + text + "; HOST/b: " + text},
		}},
		{"a page, then a file", []step{
			{"a1", "b0", ""},
			{"file4", "b0", ""},
			{"file4", "b1", "HOST/a: " + file4 + "; HOST/b: " + text},
			{"a1", "b2", "HOST/a: " + back + "; HOST/a: " + text + "; HOST/b: " + text},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			onEachStore(t, func(t *testing.T, open storeOpener) {
				p := newFilePages(t, open, "URL/a AND URL/b", "Fetch 1 hour")
				host := strings.TrimPrefix(p.base, "http://")
				p.srv.set("/a", []byte(pageWith("a0")), false)
				p.srv.set("/b", []byte(pageWith("b0")), false)
				p.check(0)
				_, a0, err := p.db.LatestVersionByURL(context.Background(), p.base+"/a")
				if err != nil {
					t.Fatal(err)
				}
				told := 0
				for i, s := range tc.steps {
					switch s.a {
					case "file4":
						p.srv.set("/a", bytes.Repeat([]byte{0, 1, 2, 3}, 1024), true)
					case "file8":
						p.srv.set("/a", bytes.Repeat([]byte{4, 5, 6, 7}, 2048), true)
					default:
						p.srv.set("/a", []byte(pageWith(s.a)), false)
					}
					p.srv.set("/b", []byte(pageWith(s.b)), false)
					p.check(time.Hour)
					subjects, _ := p.told()
					var want []string
					if s.told != "" {
						want = []string{strings.ReplaceAll(s.told, "HOST", host)}
					}
					if got := subjects[told:]; !slices.Equal(got, want) {
						t.Fatalf("step %d (A %s, B %s): told %q, want %q", i+1, s.a, s.b, got, want)
					}
					told = len(subjects)
				}
				// A's text change, told last, is from the text told before
				// the file.
				var last *vigil.Change
				for _, c := range changesOf(t, p.db, p.s) {
					if c.Summary == text && c.ResourceID == a0.ResourceID && (last == nil || c.ID > last.ID) {
						last = c
					}
				}
				if last == nil || last.FromVersion != a0.ID {
					t.Errorf("A's last text change %+v; want one from version %d, A's text before the file", last, a0.ID)
				}
			})
		})
	}
}

// TestUsingAndDigestNamesPages: a digest of a sentinel on several pages
// names the page of each change it lists, as the message telling them at
// once does ("any change: 1 text changed on URL"), and the pages that
// changed. Before, a digest named none: two changes alike could not be
// told apart.
func TestUsingAndDigestNamesPages(t *testing.T) {
	onEachStore(t, func(t *testing.T, open storeOpener) {
		p := newFilePagesSource(t, open, "URL/a AND URL/b", "Monitor any change Fetch 1 hour Notify By email owner@example.test Every 1 day")
		p.srv.set("/a", []byte(pageWith("a0")), false)
		p.srv.set("/b", []byte(pageWith("b0")), false)
		p.check(0)
		p.srv.set("/a", []byte(pageWith("a1")), false)
		p.srv.set("/b", []byte(pageWith("b1")), false)
		p.check(2 * time.Hour)
		p.check(23 * time.Hour) // the period ends
		msgs := p.messages()
		if len(msgs) != 1 || !msgs[0].Digest {
			t.Fatalf("messages %+v, want one digest", msgs)
		}
		for _, page := range []string{"/a", "/b"} {
			on := "any change: 1 text changed on " + p.base + page
			if !strings.Contains(msgs[0].Text, "\n"+on+" (") {
				t.Errorf("the digest's text does not name %s:\n%s", page, msgs[0].Text)
			}
			if !strings.Contains(msgs[0].HTML, "<h3>"+html.EscapeString(on)+" <small>") {
				t.Errorf("the digest's HTML does not name %s:\n%s", page, msgs[0].HTML)
			}
		}
	})
}
