package monitor

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// A sentinel whose table, list or scope names what its page lacks ("table
// {u}" on a page without a table#u) finds no change there, however the
// page changes: each check notes it in the sentinel's state, per page
// (pageState.ScopeMisses, intent.ScopeMisses), and the state says it for
// the pages the sentinel watches (state.ScopeNotes, read by ScopeNotes),
// which the dashboard and vigil sentinel list show. It is no failure: the
// check goes on, and the page may grow the table.

// ScopeNotes returns what the sentinel's last checks found its scopes
// select nothing of, on the pages it watches, as recorded in its stored
// state (vigil.CheckStore.SentinelStates): "scope table#u matches nothing
// on https://a.example/", sorted. None for a state without (or unread).
func ScopeNotes(raw json.RawMessage) []string { return decodeState(raw).ScopeNotes }

// needsScopeCheck reports whether x has a change type that can select
// nothing: one with a scope, or a table or list.
func needsScopeCheck(x spec.Expr) bool {
	return slices.ContainsFunc(spec.ChangeTypes(x), func(ct *spec.ChangeType) bool {
		return ct.Scope != nil || ct.Kind == spec.Table || ct.Kind == spec.List
	})
}

// noteScopeMisses records on ps what j's change types look at and the
// page's current version lacks, once per version and expression (an edit
// of the Monitor clause looks again at the version it saw). The current
// version's tree is the one a comparison of this check parsed, else it is
// parsed here. A version read as its source text, or one that cannot be
// read, notes nothing.
func (m *Monitor) noteScopeMisses(ctx context.Context, j *job, ps *pageState, pg *page, pairs map[[2]int64]*pairEval, grant *memoryGrant) {
	if pg.cur == nil {
		return
	}
	if !needsScopeCheck(j.plan.expr) {
		ps.ScopeMisses, ps.MissesOf = nil, ""
		return
	}
	key := strconv.FormatInt(pg.cur.ID, 10) + " " + spec.Print(j.plan.expr)
	if ps.MissesOf == key {
		return
	}
	ps.ScopeMisses, ps.MissesOf = nil, key
	var doc *tree.Document
	for _, pe := range pairs {
		if pe.cur == pg.cur.ID && pe.new != nil {
			if pe.curWhy != "" {
				return
			}
			doc = pe.new
			break
		}
	}
	if doc == nil {
		b, err := m.body(ctx, pg.cur.ID)
		if err == nil {
			err = grant.add(ctx, int64(len(b.data)))
		}
		var why string
		if err == nil {
			doc, why, err = m.document(b, pg.cur.ID)
		}
		if err != nil {
			m.Logger.Warn("read the page for its scopes", LogSentinel, j.s.ID, LogVersion, pg.cur.ID, LogError, err)
			ps.MissesOf = "" // looked at again at the next check
			return
		}
		if why != "" {
			return
		}
	}
	misses, err := intent.ScopeMisses(doc, j.plan.expr)
	if err != nil {
		m.Logger.Warn("scopes", LogSentinel, j.s.ID, LogError, err)
		return
	}
	ps.ScopeMisses = misses
}

// scopeNotes returns the notes of the pages urls (ScopeNotes): each
// page's misses followed by its URL, its password hidden, sorted.
func (s *state) scopeNotes(urls []string) []string {
	var out []string
	for _, u := range urls {
		ps := s.Pages[u]
		if ps == nil {
			continue
		}
		for _, miss := range ps.ScopeMisses {
			out = append(out, miss+" on "+vigil.RedactURL(u))
		}
	}
	slices.Sort(out)
	return out
}
