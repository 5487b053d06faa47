// Package feed serves each sentinel's changes as Atom and RSS feeds
// (github.com/gorilla/feeds). A feed needs no login: its URL carries a
// secret token, an HMAC of the sentinel id and its feed generation under
// the server's secret, so only those given the URL can read it. Rotating a
// sentinel's feed (vigil.SentinelStore.RotateSentinelFeed) revokes its
// URLs and no other's; a new secret revokes them all.
//
// Routes, for Handler mounted at the root of a mux:
//
//	GET /feeds/{id}/{token}/atom.xml
//	GET /feeds/{id}/{token}/rss.xml
package feed

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/feeds"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
)

// Token returns the secret token of a sentinel's feed URLs at a feed
// generation. Generation 0, every sentinel's until its feed is first
// rotated, gives the token of the URLs made before there were
// generations, which keep working; the others are told apart from it,
// and from each other, by the word "generation".
func Token(secret []byte, sentinelID, generation int64) string {
	m := hmac.New(sha256.New, secret)
	if generation == 0 {
		fmt.Fprintf(m, "vigil feed %d", sentinelID)
	} else {
		fmt.Fprintf(m, "vigil feed %d generation %d", sentinelID, generation)
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:tokenBytes])
}

// tokenBytes is the length of a token's MAC; a token is its base64url form.
const tokenBytes = 18

// wellFormed reports whether tok could be a token: of a token's length and
// in its alphabet. A URL that is not is refused before the store is read,
// so made-up feed URLs of another shape cost nothing but the check.
func wellFormed(tok string) bool {
	if len(tok) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return false
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Path returns the path of a sentinel's feed at its current feed
// generation, format "atom" or "rss".
func Path(secret []byte, s *vigil.Sentinel, format string) string {
	return fmt.Sprintf("/feeds/%d/%s/%s.xml", s.ID, Token(secret, s.ID, s.FeedGeneration), format)
}

// Store is what the feeds read.
type Store interface {
	FindSentinelByID(ctx context.Context, id int64) (*vigil.Sentinel, error)
	FindChanges(ctx context.Context, f vigil.ChangeFilter) ([]*vigil.Change, int, error)
	FindResourceByID(ctx context.Context, id int64) (*vigil.Resource, error)
}

// Server serves the feeds.
type Server struct {
	Store  Store
	Secret []byte
	// BaseURL is the public address of the server, for links ("" makes
	// them relative).
	BaseURL string
	// Limit is the number of newest changes in a feed (50 if zero).
	Limit int
}

// Register adds the feed routes to mux.
func (s *Server) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /feeds/{id}/{token}/atom.xml", s.handleFeed("atom"))
	mux.HandleFunc("GET /feeds/{id}/{token}/rss.xml", s.handleFeed("rss"))
}

func (s *Server) handleFeed(format string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// A feed is read by feed readers, not shown: should a browser
		// show one, nothing in it runs or loads.
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		// Not kept by a shared cache in front of the server, which would
		// go on serving a feed whose link was replaced (revoked); a feed
		// reader asks again each time.
		h.Set("Cache-Control", "private, no-cache")
		id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
		if err != nil || !wellFormed(r.PathValue("token")) {
			http.NotFound(w, r)
			return
		}
		// The token is checked against the sentinel's current generation:
		// a token of an earlier one, revoked, is as unknown as a wrong one
		// or a sentinel that does not exist.
		sen, err := s.Store.FindSentinelByID(r.Context(), id)
		if vigil.ErrorCode(err) == vigil.ENOTFOUND {
			http.NotFound(w, r)
			return
		} else if err != nil {
			http.Error(w, "Internal error.", http.StatusInternalServerError)
			return
		}
		if !hmac.Equal([]byte(r.PathValue("token")), []byte(Token(s.Secret, id, sen.FeedGeneration))) {
			http.NotFound(w, r)
			return
		}
		f, err := s.build(r.Context(), sen)
		if err != nil {
			http.Error(w, "Internal error.", http.StatusInternalServerError)
			return
		}
		var out string
		if format == "atom" {
			// Atom needs an author for a feed whose entries have none
			// (RSS would make it a managing editor's address). Its link
			// is to itself, which gorilla/feeds also makes its id: the
			// id it has always had.
			f.Author = &feeds.Author{Name: "Vigil"}
			f.Link = &feeds.Link{Href: s.BaseURL + Path(s.Secret, sen, "atom"), Rel: "self"}
			out, err = f.ToAtom()
			w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
		} else {
			f.Description = html.EscapeString(f.Description)
			out, err = f.ToRss()
			w.Header().Set("Content-Type", "application/rss+xml; charset=utf-8")
		}
		if err != nil {
			http.Error(w, "Internal error.", http.StatusInternalServerError)
			return
		}
		w.Write([]byte(out))
	}
}

// Build returns the feed of a sentinel: its newest changes, newest first.
func (s *Server) Build(ctx context.Context, sentinelID int64) (*feeds.Feed, error) {
	sen, err := s.Store.FindSentinelByID(ctx, sentinelID)
	if err != nil {
		return nil, err
	}
	return s.build(ctx, sen)
}

// build is Build of a sentinel already read.
func (s *Server) build(ctx context.Context, sen *vigil.Sentinel) (*feeds.Feed, error) {
	sentinelID := sen.ID
	limit := s.Limit
	if limit <= 0 {
		limit = 50
	}
	changes, _, err := s.Store.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sentinelID, Limit: limit})
	if err != nil {
		return nil, err
	}
	f := &feeds.Feed{
		Title: "Vigil: " + sen.Name,
		// The sentinel's page on the dashboard: RSS's channel link (Atom's
		// is the feed itself, handleFeed).
		Link: &feeds.Link{Href: fmt.Sprintf("%s/sentinels/%d", s.BaseURL, sentinelID)},
		// Plain text in Atom (a subtitle), HTML in RSS: escaped when
		// written as RSS (handleFeed).
		Description: "Changes found by the sentinel " + sen.Name,
		Id:          fmt.Sprintf("vigil:sentinel:%d", sentinelID),
		Created:     sen.CreatedAt,
		Updated:     sen.UpdatedAt,
	}
	// The page of each change: said in every entry, and in the titles
	// when the entries are about several pages ("Using A OR B").
	pages := map[int64]string{}
	for _, c := range changes {
		if _, ok := pages[c.ResourceID]; ok {
			continue
		}
		if r, err := s.Store.FindResourceByID(ctx, c.ResourceID); err == nil {
			pages[c.ResourceID] = r.URL
		} else if vigil.ErrorCode(err) != vigil.ENOTFOUND {
			return nil, err
		} else {
			pages[c.ResourceID] = ""
		}
	}
	for _, c := range changes {
		if c.DetectedAt.After(f.Updated) {
			f.Updated = c.DetectedAt
		}
		link := fmt.Sprintf("%s/changes/%d", s.BaseURL, c.ID)
		title := c.Summary
		if page := pages[c.ResourceID]; page != "" && len(pages) > 1 {
			title += " on " + page
		}
		f.Items = append(f.Items, &feeds.Item{
			Title: title,
			Link:  &feeds.Link{Href: link},
			Id:    fmt.Sprintf("vigil:change:%d", c.ID),
			// Not a URL: RSS takes a guid for a permalink unless told.
			IsPermaLink: "false",
			// HTML in both forms (Atom's summary type="html", RSS's
			// description): the summary quotes what the user wrote.
			Description: html.EscapeString(c.Summary),
			Content:     itemContent(c, pages[c.ResourceID], link),
			Created:     c.DetectedAt,
			Updated:     c.DetectedAt,
		})
	}
	if f.Updated.IsZero() {
		f.Updated = time.Unix(0, 0).UTC()
	}
	return f, nil
}

// itemContent is the HTML of a change's entry: its summary, the page that
// changed (if known), a link to the change on the dashboard, its records,
// a line of words each, and how its versions were read when they were
// read differently (vigil.ChangeReading.Note).
func itemContent(c *vigil.Change, page, link string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<p>%s</p>", html.EscapeString(c.Summary))
	if page != "" {
		fmt.Fprintf(&b, "<p>On <a href=\"%s\">%s</a></p>", html.EscapeString(page), html.EscapeString(page))
	}
	fmt.Fprintf(&b, "<p><a href=\"%s\">See the change</a></p>", html.EscapeString(link))
	records, omitted := c.FirstRecords(maxFeedRecords, maxFeedRecordBytes)
	shown := omitted == 0 || string(records) != "[]"
	if len(records) > 0 && shown {
		var list []intent.Change
		if json.Unmarshal(records, &list) == nil {
			// In words, as the mails say it ("list item added: ...").
			b.WriteString("<ul>")
			for _, r := range list {
				fmt.Fprintf(&b, "<li>%s</li>", r.LineHTML())
			}
			b.WriteString("</ul>")
		} else {
			var pretty bytes.Buffer
			if json.Indent(&pretty, records, "", "  ") == nil {
				fmt.Fprintf(&b, "<pre>%s</pre>", html.EscapeString(pretty.String()))
			}
		}
	}
	switch {
	case omitted == 0:
	case !shown:
		// The first record alone is longer than an entry holds (a long
		// text rewritten).
		fmt.Fprintf(&b, "<p>%d %s, too long for a feed: <a href=\"%s\">see the change</a></p>", omitted, plural(omitted, "record"), html.EscapeString(link))
	default:
		fmt.Fprintf(&b, "<p>and %d more %s: <a href=\"%s\">see the change</a></p>", omitted, plural(omitted, "record"), html.EscapeString(link))
	}
	if note := c.Reading.Note(); note != "" {
		// How its versions were read, as its message said it.
		fmt.Fprintf(&b, "<p>%s</p>", html.EscapeString(note))
	}
	return b.String()
}

// plural is thing, or its plural when n is not 1.
func plural(n int, thing string) string {
	if n == 1 {
		return thing
	}
	return thing + "s"
}

// maxFeedRecords and maxFeedRecordBytes bound the records an entry shows:
// a change to every row of a large table made entries of megabytes, which
// every reader's poll fetched again. The byte bound keeps a feed of 50
// entries under a megabyte when each record is a long text.
const (
	maxFeedRecords     = 50
	maxFeedRecordBytes = 16 << 10
)
