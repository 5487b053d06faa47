package intent

import (
	"encoding/json"
	"fmt"
	"slices"
)

// ObjectKind is the kind of object a change is about.
type ObjectKind string

// The object kinds.
const (
	KindNode       ObjectKind = "node"        // a content leaf (text or attribute), for any change
	KindWord       ObjectKind = "word"        // a run of words, for all words
	KindKeyword    ObjectKind = "keyword"     // an occurrence of a keyword
	KindPhrase     ObjectKind = "phrase"      // an occurrence of a phrase
	KindLink       ObjectKind = "link"        // a hyperlink
	KindImage      ObjectKind = "image"       // an image reference
	KindTableRow   ObjectKind = "table-row"   // a row of a table
	KindTableCell  ObjectKind = "table-cell"  // a cell of a table row that is in both versions
	KindListItem   ObjectKind = "list-item"   // an item of a list
	KindRegexMatch ObjectKind = "regex-match" // a match of a regular expression
	KindValue      ObjectKind = "value"       // the number a value change type watches
	KindPage       ObjectKind = "page"        // a page of a site watched whole (see PageInfo)
)

// Operation is what happened to the object.
type Operation string

// The operations. A move keeps the object and changes its position among
// the objects of its kind; an update keeps its place and changes its value.
const (
	Insert Operation = "insert"
	Delete Operation = "delete"
	Update Operation = "update"
	Move   Operation = "move"
)

// Change is one typed change between two versions: the form of change
// records in the REST API and webhooks (schema/change.schema.json).
//
// Positions are 1-based ordinals among the objects of the kind in each
// version: content leaves (text and attribute leaves in document order) for
// node, keyword and phrase changes, as in the seed; words for word changes;
// links, images, rows, items and matches for theirs. OldPos and OldPath
// describe the object in the old version (delete, update, move), NewPos
// and NewPath in the new one (insert, update, move).
//
// A record holds at most 4 KiB of each of its texts (Old and New, a
// link's or an image's texts and targets, a row's key or a column's
// header, each label of a list item's parents): a longer one is cut, from
// a little before the two sides' first difference, with ellipses ("…"),
// as Texts cuts what a reader is shown to 300 bytes.
type Change struct {
	Kind      ObjectKind `json:"kind"`
	Op        Operation  `json:"op"`
	Old       string     `json:"old,omitempty"`
	New       string     `json:"new,omitempty"`
	OldPos    int        `json:"oldPos,omitempty"`
	NewPos    int        `json:"newPos,omitempty"`
	OldPath   string     `json:"oldPath,omitempty"`
	NewPath   string     `json:"newPath,omitempty"`
	Signature string     `json:"signature,omitempty"` // path(x) of the seed: root-first element labels joined by "-"
	// WordPos is the 1-based index of a keyword among the words of its
	// leaf, or of the first word of a run of words.
	WordPos int `json:"wordPos,omitempty"`
	// Fields names the parts of an updated object that changed: "href",
	// "text", "src", "alt", "cells", "value".
	Fields []string `json:"fields,omitempty"`
	// Similarity is, for a phrase update, the share of the phrase's words
	// that survive (the seed's common subsequence, compared with f).
	Similarity float64 `json:"similarity,omitempty"`

	Link  *LinkInfo  `json:"link,omitempty"`
	Image *ImageInfo `json:"image,omitempty"`
	Table *TableInfo `json:"table,omitempty"`
	List  *ListInfo  `json:"list,omitempty"`
	Regex *RegexInfo `json:"regex,omitempty"`
	Value *ValueInfo `json:"value,omitempty"`
	Page  *PageInfo  `json:"page,omitempty"`
}

// LinkInfo describes a link change: the targets and texts before and after,
// and the path of the element the link sits in.
type LinkInfo struct {
	OldHref string `json:"oldHref,omitempty"`
	NewHref string `json:"newHref,omitempty"`
	OldText string `json:"oldText,omitempty"`
	NewText string `json:"newText,omitempty"`
	Context string `json:"context,omitempty"`
}

// ImageInfo describes an image change: the image's source and
// alternative text before and after. In a picture whose first source is
// the same in both versions, OldSrc and NewSrc are the first of its
// other sources (or its img's own) that changed, "" for a source that
// one version does not have.
type ImageInfo struct {
	OldSrc string `json:"oldSrc,omitempty"`
	NewSrc string `json:"newSrc,omitempty"`
	OldAlt string `json:"oldAlt,omitempty"`
	NewAlt string `json:"newAlt,omitempty"`
}

// TableInfo locates a table change: the table (its id, or "#n" for the
// n-th table), the row's name (its first cell the monitor does not
// ignore, after the body cells above whose rowspans cover the columns
// before it: "Berlin / Tea" for the tea of a "Berlin" over the rows of
// its prices), and for a
// cell its column (1-based, where HTML's table model places it, a
// rowspan above it and a cell the monitor ignores before it counted; for
// a cell over several columns, its colspan, the first of them) and the
// column's header (the lowest header cell over the column). A cell of a
// header row (HeaderRow:
// every row of a thead, or without one a first row all of th) is a
// header itself, its column's or, in a thead's rows above the last, a
// group's: it has no row, its Header is its own text, and its change is
// the column's (added, removed, its header changed).
type TableInfo struct {
	Table     string `json:"table"`
	Row       string `json:"row,omitempty"`
	Column    int    `json:"column,omitempty"`
	Header    string `json:"header,omitempty"`
	HeaderRow bool   `json:"headerRow,omitempty"`
}

// ListInfo locates a list-item change: the list (its id, or "#n" for the
// n-th list) and, for an item of a nested list, the labels of the items
// it sits in, outermost first, in the old version (delete, update, move)
// and in the new one (insert, update, move). A label is the item's own
// text, without its nested lists (a definition's terms, for an item of a
// dl), or, when it has none, "#n" for the n-th of the items beside it; past 16 labels, the outermost, "…" and the 14
// innermost are kept.
type ListInfo struct {
	List       string   `json:"list"`
	OldParents []string `json:"oldParents,omitempty"`
	NewParents []string `json:"newParents,omitempty"`
}

// RegexInfo names the expression of a regex-match change.
type RegexInfo struct {
	Expr string `json:"expr"`
}

// ValueInfo describes a value change: the numbers, the difference
// (new - old, rounded to the most decimal places the two writings show),
// the bound crossed by a rises above / falls below condition, and, where
// the scope holds several values, the item the value sits in.
type ValueInfo struct {
	Old       *float64 `json:"old,omitempty"`
	New       *float64 `json:"new,omitempty"`
	Delta     float64  `json:"delta,omitempty"`
	Direction string   `json:"direction,omitempty"` // "increased", "decreased", "unchanged"
	Crossed   string   `json:"crossed,omitempty"`   // "above" or "below"
	Threshold *float64 `json:"threshold,omitempty"`
	// Item names the value among the others of its scope, where it holds
	// several: the text of the row, list item or other element it sits in
	// alone, without the value's own text (in the new version, or the old
	// one for a value removed), cut to 120 bytes; where that holds no
	// word (a sale price and the regular one side by side: "$"), the text
	// of the element its group of values sits in alone (the card), without
	// the values. "" when both versions hold one value at most, or when it
	// sits in no element of its own.
	Item string `json:"item,omitempty"`
}

// Result is the evaluation of a change-type expression on a pair of
// versions. For a primitive change type, Matched is C_t(V1, V2) and Changes
// are the records found; for NOT, AND and OR, Operands holds the operands'
// results and Changes is empty.
type Result struct {
	Type     string    `json:"type"` // the expression's label (spec.Label): as the spec printer writes it, cut to spec.MaxLabel bytes and "..."
	Matched  bool      `json:"matched"`
	Changes  []Change  `json:"changes,omitempty"`
	Op       string    `json:"op,omitempty"` // "NOT", "AND" or "OR" for composites
	Operands []*Result `json:"operands,omitempty"`
	// ScopeNotApplied is, for a primitive change type whose scope or
	// ignore list could not be applied, why: its pair's versions, read
	// differently, are compared as their source texts (Pair.OldSource),
	// and a text that the scope does not select in as read could not be
	// read as HTML either (nested past the HTML parser's limit), so the
	// whole texts were compared. "" for one applied, or without selectors.
	ScopeNotApplied string `json:"scopeNotApplied,omitempty"`
	// NotApplied names the selectors ScopeNotApplied is about: the
	// scope, the ignore list, or both; 0 when it is "". In JSON, their
	// names (Selectors.Names); absent from a result written before it was
	// kept, which read so names none.
	NotApplied Selectors `json:"notApplied,omitempty"`
}

// Selectors names the selectors of a change type that could not be
// applied (Result.NotApplied): its scope, its ignore list, or both.
type Selectors uint8

const (
	// SelectorScope is a change type's scope (In ...).
	SelectorScope Selectors = 1 << iota
	// SelectorIgnore is a change type's ignore list (Ignore ...).
	SelectorIgnore
)

// String names s for a message: "the scope", "the ignore list", "the
// scope and the ignore list"; "" for none.
func (s Selectors) String() string {
	switch s {
	case SelectorScope:
		return "the scope"
	case SelectorIgnore:
		return "the ignore list"
	case SelectorScope | SelectorIgnore:
		return "the scope and the ignore list"
	}
	return ""
}

// selectorNames are the names of the selectors in JSON, by bit, as
// vigil.ChangeReading.NotApplied names them.
var selectorNames = [...]selectorName{{SelectorScope, "scope"}, {SelectorIgnore, "ignore"}}

// selectorName is a selector and its name.
type selectorName struct {
	s    Selectors
	name string
}

// Names returns the names of the selectors of s, "scope" and "ignore", in
// that order: its JSON form. nil for none.
func (s Selectors) Names() []string {
	var out []string
	for _, n := range selectorNames {
		if s&n.s != 0 {
			out = append(out, n.name)
		}
	}
	return out
}

// MarshalJSON writes s as its names (Names).
func (s Selectors) MarshalJSON() ([]byte, error) {
	return json.Marshal(s.Names())
}

// UnmarshalJSON reads s from its names; a name that is no selector, or a
// value that is no array of names, is an error naming notApplied.
func (s *Selectors) UnmarshalJSON(data []byte) error {
	var names []string
	if err := json.Unmarshal(data, &names); err != nil {
		return fmt.Errorf("notApplied: %s is no array of selector names", data)
	}
	var out Selectors
	for _, name := range names {
		i := slices.IndexFunc(selectorNames[:], func(n selectorName) bool { return n.name == name })
		if i < 0 {
			return fmt.Errorf("notApplied: %q is no selector (scope, ignore)", name)
		}
		out |= selectorNames[i].s
	}
	*s = out
	return nil
}

// ScopesNotApplied returns the ScopeNotApplied of r and of its operands
// that are not "", each once, in order: what a message about r says of
// the selectors it could not apply (SelectorsNotApplied names them).
func (r *Result) ScopesNotApplied() []string {
	var out []string
	seen := map[string]bool{}
	r.walk(func(r *Result) {
		if s := r.ScopeNotApplied; s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}, false)
	return out
}

// walk calls f for r and for each of its operands, depth first, without
// those under a NOT if skipNot: in time linear in r's size, where
// appending each operand's list to its parent's would take time
// quadratic in the length of an AND or OR chain.
func (r *Result) walk(f func(*Result), skipNot bool) {
	if r == nil {
		return
	}
	f(r)
	if skipNot && r.Op == "NOT" {
		return
	}
	for _, o := range r.Operands {
		o.walk(f, skipNot)
	}
}

// SelectorsNotApplied returns the selectors that r and its operands
// could not apply (their NotApplied, together): what a message about r
// names, with the reasons ScopesNotApplied gives.
func (r *Result) SelectorsNotApplied() Selectors {
	if r == nil {
		return 0
	}
	s := r.NotApplied
	for _, o := range r.Operands {
		s |= o.SelectorsNotApplied()
	}
	return s
}

// AllChanges returns the changes of r and of its operands, depth first,
// without those under a NOT (a NOT operand's changes are why it failed, or
// there are none).
func (r *Result) AllChanges() []Change {
	var out []Change
	r.walk(func(r *Result) { out = append(out, r.Changes...) }, true)
	return out
}
