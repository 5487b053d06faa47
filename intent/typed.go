package intent

import (
	"cmp"
	"regexp"
	"slices"
	"sort"

	"github.com/vigil-web/vigil/tree"
)

// objectChange fills the common fields of an object change.
func objectChange(pc *pathCache, kind ObjectKind, e objEdit, old, new []object, value func(*object) string) Change {
	c := Change{Kind: kind, Op: e.op}
	if e.a >= 0 {
		o := &old[e.a]
		c.Old, c.OldPos, c.OldPath = value(o), o.pos, pc.node(o.node)
	}
	if e.b >= 0 {
		n := &new[e.b]
		c.New, c.NewPos, c.NewPath = value(n), n.pos, pc.node(n.node)
	}
	return c
}

// linkChanges: links added, removed, moved, and updated (target changed,
// text changed, or both), their targets read as sets (linkEdits), each
// without its signing parameters (object.ref) and reported as written.
func linkChanges(pc *pathCache, old, new []object) []Change {
	var out []Change
	for _, e := range linkEdits(old, new) {
		c := objectChange(pc, KindLink, e, old, new, func(o *object) string { return o.href })
		info := &LinkInfo{}
		if e.a >= 0 {
			o := &old[e.a]
			info.OldHref, info.OldText = o.href, o.text
			info.Context = pc.node(o.node.Parent)
		}
		if e.b >= 0 {
			n := &new[e.b]
			info.NewHref, info.NewText = n.href, n.text
			info.Context = pc.node(n.node.Parent)
		}
		if e.op == Update {
			if old[e.a].ref != new[e.b].ref {
				c.Fields = append(c.Fields, "href")
			}
			if info.OldText != info.NewText {
				c.Fields = append(c.Fields, "text")
			}
		}
		c.Link = info
		out = append(out, c)
	}
	return out
}

// linkEdits is diffObjects on links, its edits read as sets of targets:
// a link is added when its target is in no link of old, removed when in
// none of new, and each target is added, removed or moved once, however
// many links of a version have it (an a element's logo and text, a text
// whose link's text is its URL, an Atom entry's link and id read as
// text). A target on both sides is neither added nor removed, whatever
// its count: a copy added or removed is no change. A link whose target
// changed in place stays a change of target when its old target is
// gone from new and its new one new to old; else it is the half that is
// (the new target added, or the old removed), or nothing. A change of
// text is told once for each target, old text and new, and not when the
// old version had a copy of the link with the new text or the new one
// keeps one with the old text (a logo's link removed beside its text
// link): that is a copy removed or added.
func linkEdits(old, new []object) []objEdit {
	edits := diffObjects(old, new, true)
	if len(edits) == 0 {
		return nil
	}
	inOld, oldKeys := linkSets(old)
	inNew, newKeys := linkSets(new)
	added, removed, moved := map[string]bool{}, map[string]bool{}, map[string]bool{}
	retitled := map[[3]string]bool{}
	out := edits[:0]
	for _, e := range edits {
		switch e.op {
		case Insert:
			h := new[e.b].ref
			if inOld[h] || added[h] {
				continue
			}
			added[h] = true
		case Delete:
			h := old[e.a].ref
			if inNew[h] || removed[h] {
				continue
			}
			removed[h] = true
		case Move:
			h := new[e.b].ref
			if moved[h] {
				continue
			}
			moved[h] = true
		case Update:
			a, b := &old[e.a], &new[e.b]
			if a.ref == b.ref {
				// A copy of the link with the new text was there
				// before, or one with the old text still is: a copy
				// removed or added, no change.
				k := [3]string{a.ref, a.text, b.text}
				if retitled[k] || oldKeys[b.key] || newKeys[a.key] {
					continue
				}
				retitled[k] = true
				break
			}
			gone := !inNew[a.ref] && !removed[a.ref]
			came := !inOld[b.ref] && !added[b.ref]
			switch {
			case gone && came:
			case gone:
				e = objEdit{Delete, e.a, -1}
			case came:
				e = objEdit{Insert, -1, e.b}
			default:
				continue
			}
			if gone {
				removed[a.ref] = true
			}
			if came {
				added[b.ref] = true
			}
		}
		out = append(out, e)
	}
	return out
}

// linkSets returns the targets of links and their keys (target and text),
// each as a set.
func linkSets(links []object) (hrefs, keys map[string]bool) {
	hrefs, keys = make(map[string]bool, len(links)), make(map[string]bool, len(links))
	for i := range links {
		hrefs[links[i].ref], keys[links[i].key] = true, true
	}
	return hrefs, keys
}

// imageChanges: images added, removed, moved, replaced (src changed, or
// in a picture any of its sources: changedSource) or re-described (alt
// changed).
func imageChanges(pc *pathCache, old, new []object) []Change {
	var out []Change
	for _, e := range diffObjects(old, new, true) {
		c := objectChange(pc, KindImage, e, old, new, func(o *object) string { return o.src })
		info := &ImageInfo{}
		if e.a >= 0 {
			info.OldSrc, info.OldAlt = old[e.a].src, old[e.a].alt
		}
		if e.b >= 0 {
			info.NewSrc, info.NewAlt = new[e.b].src, new[e.b].alt
		}
		if e.op == Update {
			if unsignedURL(info.OldSrc) != unsignedURL(info.NewSrc) {
				c.Fields = append(c.Fields, "src")
			} else if o, n, ok := changedSource(old[e.a].sources(), new[e.b].sources()); ok {
				// A picture that shows the same image here, another
				// on another screen or browser: the source that
				// changed.
				c.Old, c.New, info.OldSrc, info.NewSrc = o, n, o, n
				c.Fields = append(c.Fields, "src")
			}
			if info.OldAlt != info.NewAlt {
				c.Fields = append(c.Fields, "alt")
			}
		}
		c.Image = info
		out = append(out, c)
	}
	return out
}

// changedSource returns the first of a picture's sources, old and new
// (object.srcs, each "" past its version's last), that differ without
// their signing parameters (unsignedURL), and false when none does.
func changedSource(old, new []string) (o, n string, ok bool) {
	for i := range max(len(old), len(new)) {
		o, n = "", ""
		if i < len(old) {
			o = old[i]
		}
		if i < len(new) {
			n = new[i]
		}
		if i >= len(old) || i >= len(new) || unsignedURL(o) != unsignedURL(n) {
			return o, n, true
		}
	}
	return "", "", false
}

// tableChanges: rows added, removed and moved; for a row in both versions
// whose cells differ, one table-cell change per changed cell, the columns
// paired by their headers (columnPairs): a cell of a column added or
// removed is inserted or deleted.
func tableChanges(pc *pathCache, pairs [][2]*container) []Change {
	var out []Change
	for _, pr := range pairs {
		o, n := pr[0], pr[1]
		var old, new []object
		var oldHead, newHead, oldKeys, newKeys []string
		name := ""
		if o != nil {
			old, name, oldHead, oldKeys = o.items, o.name(), o.headers, o.headerKeys
		}
		if n != nil {
			new, name, newHead, newKeys = n.items, n.name(), n.headers, n.headerKeys
		}
		if oldHead == nil {
			oldHead, oldKeys = newHead, newKeys
		}
		if newHead == nil {
			newHead, newKeys = oldHead, oldKeys
		}
		var head [][2]int // the columns of the headers, paired once
		headDone := false
		var oldPair, newPair []int // each header column's place in head (pairIndexes)
		for _, e := range diffObjects(old, new, true) {
			rowText := func(ob *object) string { return ob.text }
			if e.op != Update {
				c := objectChange(pc, KindTableRow, e, old, new, rowText)
				var row *object
				if e.b >= 0 {
					row = &new[e.b]
				} else {
					row = &old[e.a]
				}
				c.Table = &TableInfo{Table: name, Row: row.rowName}
				if row.head {
					c.Table.Row, c.Table.HeaderRow = "", true
				}
				out = append(out, c)
				continue
			}
			if !headDone {
				head, headDone = columnPairs(oldKeys, newKeys), true
				oldPair, newPair = pairIndexes(head, len(oldKeys), len(newKeys))
			}
			a, b := &old[e.a], &new[e.b]
			// Past the headers, columns pair by position.
			cols := append(headColumns(head, oldPair, newPair, a, b), pastHeaders(a, len(oldHead), b, len(newHead))...)
			for _, cp := range cellPairs(cols, a, b) {
				i, j := cp[0], cp[1]
				hasOld, hasNew := i >= 0, j >= 0
				var ov, nv string
				if hasOld {
					ov = a.cells[i]
				}
				if hasNew {
					nv = b.cells[j]
				}
				if ov == nv {
					continue
				}
				c := Change{Kind: KindTableCell, Op: Update, Old: ov, New: nv,
					OldPos: a.pos, NewPos: b.pos, OldPath: pc.node(a.node), NewPath: pc.node(b.node),
					Fields: []string{"cells"}}
				info := &TableInfo{Table: name, Row: b.rowName}
				if a.head || b.head {
					// The header row's cells are the columns'
					// headers: no row's cells.
					info.Row, info.HeaderRow = "", true
				}
				switch {
				case !hasOld:
					c.Op = Insert
				case !hasNew:
					c.Op = Delete
				}
				// A cell's column is the first it spans, where the
				// table's slots place it (slotGrid).
				if hasNew {
					col := b.cellCol(j)
					info.Column = col + 1
					if col < len(newHead) {
						info.Header = newHead[col]
					}
				} else {
					col := a.cellCol(i)
					info.Column = col + 1
					if col < len(oldHead) {
						info.Header = oldHead[col]
					}
				}
				if info.HeaderRow {
					// A header row's cell is a header itself: the
					// column's (the last header row's) or a group's
					// over several columns (a thead's rows above).
					info.Header = cmp.Or(nv, ov)
				}
				c.Table = info
				out = append(out, c)
			}
		}
	}
	return out
}

// pastHeaders returns the columns past the headers (oldHead and newHead
// of them) of the old and new versions of a table row, a and b, paired by
// position, that a cell of either is over, in order: not those of neither,
// which a rowspan above may make a million.
func pastHeaders(a *object, oldHead int, b *object, newHead int) [][2]int {
	var ks []int // past the headers: column oldHead+k of a, newHead+k of b
	for _, r := range []struct {
		o    *object
		head int
	}{{a, oldHead}, {b, newHead}} {
		for k := range r.o.cells {
			for col := max(r.o.cellCol(k), r.head); col < r.o.cellCol(k)+r.o.cellSpan(k); col++ {
				ks = append(ks, col-r.head)
			}
		}
	}
	slices.Sort(ks)
	ks = slices.Compact(ks)
	out := make([][2]int, len(ks))
	for i, k := range ks {
		out[i] = [2]int{oldHead + k, newHead + k}
	}
	return out
}

// pairIndexes returns, for each of the nOld and nNew header columns of two
// versions of a table, its place in head, their pairs (columnPairs, where
// each column is once).
func pairIndexes(head [][2]int, nOld, nNew int) (oldPair, newPair []int) {
	oldPair, newPair = make([]int, nOld), make([]int, nNew)
	for k, cp := range head {
		if cp[0] >= 0 {
			oldPair[cp[0]] = k
		}
		if cp[1] >= 0 {
			newPair[cp[1]] = k
		}
	}
	return oldPair, newPair
}

// headColumns returns the pairs of header columns, of head, over which
// row a (old) or row b (new) has a cell, in head's order: those that
// cellPairs reads, found from the rows' cells, so that a row costs its own
// cells' columns, not every column of a wide header (a thousand cells of
// colspan 1000 make a million). oldPair and newPair give each column's
// place in head (pairIndexes).
func headColumns(head [][2]int, oldPair, newPair []int, a, b *object) [][2]int {
	var ks []int
	for _, r := range []struct {
		o    *object
		pair []int
	}{{a, oldPair}, {b, newPair}} {
		for k := range r.o.cells {
			for col := r.o.cellCol(k); col < min(r.o.cellCol(k)+r.o.cellSpan(k), len(r.pair)); col++ {
				ks = append(ks, r.pair[col])
			}
		}
	}
	slices.Sort(ks)
	ks = slices.Compact(ks)
	out := make([][2]int, len(ks))
	for i, k := range ks {
		out[i] = head[k]
	}
	return out
}

// cellPairs pairs the cells of two versions of a table row, a and b, by
// the columns they span: cols are the columns paired (columnPairs, -1 for
// a column of one version only); object.cellAt finds a row's cell over a
// column. A cell is paired with the first
// cell of the other row it shares a column with that is not paired yet;
// a cell left unpaired is one version's only (-1 for the other). The
// pairs come in the order of the columns, each once, as old and new
// indexes into the rows' cells.
func cellPairs(cols [][2]int, a, b *object) [][2]int {
	cellAt := func(o *object, col int) int {
		if col < 0 {
			return -1
		}
		return o.cellAt(col)
	}
	nOld, nNew := len(a.cells), len(b.cells)
	pairOfOld, pairOfNew := make([]int, nOld), make([]int, nNew)
	for k := range pairOfOld {
		pairOfOld[k] = -1
	}
	for k := range pairOfNew {
		pairOfNew[k] = -1
	}
	for _, col := range cols {
		i, j := cellAt(a, col[0]), cellAt(b, col[1])
		if i >= 0 && j >= 0 && pairOfOld[i] < 0 && pairOfNew[j] < 0 {
			pairOfOld[i], pairOfNew[j] = j, i
		}
	}
	var out [][2]int
	doneOld, doneNew := make([]bool, nOld), make([]bool, nNew)
	for _, col := range cols {
		if i := cellAt(a, col[0]); i >= 0 && !doneOld[i] {
			j := pairOfOld[i]
			out = append(out, [2]int{i, j})
			doneOld[i] = true
			if j >= 0 {
				doneNew[j] = true
			}
		}
		if j := cellAt(b, col[1]); j >= 0 && !doneNew[j] {
			i := pairOfNew[j]
			out = append(out, [2]int{i, j})
			doneNew[j] = true
			if i >= 0 {
				doneOld[i] = true
			}
		}
	}
	return out
}

// columnPairs pairs the columns of a table's two header rows, as old and
// new 0-based indexes (-1 for a column of one version only). Headers that
// differ are aligned by a common subsequence of their texts, so that a
// column added or removed is that column inserted or deleted, not a shift
// of every cell after it; between two headers found in both, the columns
// left pair in order (a header renamed), the rest are inserted or deleted.
// Equal headers pair by position.
func columnPairs(oldHead, newHead []string) [][2]int {
	if slices.Equal(oldHead, newHead) {
		out := make([][2]int, len(oldHead))
		for i := range out {
			out[i] = [2]int{i, i}
		}
		return out
	}
	ids := map[string]int32{}
	tokens := func(head []string) []int32 {
		t := make([]int32, len(head))
		for i, h := range head {
			id, ok := ids[h]
			if !ok {
				id = int32(len(ids))
				ids[h] = id
			}
			t[i] = id
		}
		return t
	}
	common := lcs(tokens(oldHead), tokens(newHead))
	var out [][2]int
	i, j := 0, 0
	gap := func(ai, bj int) { // the columns before old ai and new bj
		for ; i < ai && j < bj; i, j = i+1, j+1 {
			out = append(out, [2]int{i, j})
		}
		for ; i < ai; i++ {
			out = append(out, [2]int{i, -1})
		}
		for ; j < bj; j++ {
			out = append(out, [2]int{-1, j})
		}
	}
	for _, m := range common {
		gap(m.a, m.b)
		out = append(out, [2]int{m.a, m.b})
		i, j = m.a+1, m.b+1
	}
	gap(len(oldHead), len(newHead))
	return out
}

// regexObjects returns the matches of re in the content's text (its text
// leaves joined by spaces, so a match may span inline elements), block by
// block: a match does not span the end of a paragraph, a cell or a line,
// and ^ and $ match at the start and end of each block.
func regexObjects(c *content, re *regexp.Regexp) []object {
	text := c.contentText()
	var out []object
	for k, start := range c.textBlocks {
		end := len(text)
		if k+1 < len(c.textBlocks) {
			end = c.textBlocks[k+1] - 1 // the space before the next block
		}
		out = appendRegexObjects(out, c, re, text, start, end)
	}
	return out
}

// appendRegexObjects appends to out the matches of re in text[start:end],
// a block of c's text.
func appendRegexObjects(out []object, c *content, re *regexp.Regexp, text string, start, end int) []object {
	for _, m := range re.FindAllStringIndex(text[start:end], -1) {
		m[0], m[1] = m[0]+start, m[1]+start
		if m[0] == m[1] {
			continue
		}
		s := text[m[0]:m[1]]
		// The text leaf where the match starts: the last that starts at
		// or before it. (Searched among text leaves only: attribute
		// leaves have no place in the text, and with them in the list
		// the search was not over an ordered one.)
		var node *tree.Node
		if k := sort.SearchInts(c.textStarts, m[0]+1) - 1; k >= 0 {
			node = c.leaves[c.textLeaves[k]].node
		}
		out = append(out, object{key: s, node: node, pos: len(out) + 1, text: s})
	}
	return out
}

func regexChanges(pc *pathCache, expr string, old, new []object) []Change {
	var out []Change
	for _, e := range diffObjects(old, new, true) {
		c := objectChange(pc, KindRegexMatch, e, old, new, func(o *object) string { return o.text })
		c.Regex = &RegexInfo{Expr: expr}
		if e.op == Update {
			c.Fields = []string{"text"}
		}
		out = append(out, c)
	}
	return out
}
