package markup

import (
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// JoinTexts calls add with each text node's value in n's subtree (n's own
// if it is a text), in document order, and the separator a reader sees
// before it: "" before the first, and before a text that follows the one
// before with only inline HTML elements between them (html set, IsInline:
// the white-space policy keeps the page's own spaces in its texts, "Alpha
// " <b>x</b> " beta", and pri<b>ce</b> is one word); " " before the
// others, which an element that is not inline (a paragraph, a cell, a
// line break), or in XML any element (an Atom entry's title and id),
// starts or ends between. Comments and processing instructions are not
// texts and part nothing. It stops when add returns false. The values are
// given as they are: the caller collapses their white space. The walk is
// iterative, so deep trees do not grow the stack.
func JoinTexts(n *tree.Node, html bool, add func(sep, text string) bool) {
	parts := func(e *tree.Node) bool {
		if !html {
			return true
		}
		name := e.Name
		if i := strings.LastIndexByte(name, ':'); i >= 0 {
			name = name[i+1:]
		}
		return !IsInline(strings.ToLower(name))
	}
	type frame struct {
		node *tree.Node
		next int // the child to visit next
	}
	stack := []frame{{n, 0}}
	started, apart := false, false
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		m := f.node
		if f.next == 0 {
			switch m.Kind {
			case tree.Text:
				sep := ""
				if started && apart {
					sep = " "
				}
				if !add(sep, m.Value) {
					return
				}
				started, apart = true, false
			case tree.Element:
				apart = apart || parts(m)
			}
		}
		if f.next == len(m.Children) {
			if m.Kind == tree.Element {
				apart = apart || parts(m)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		f.next++
		stack = append(stack, frame{m.Children[f.next-1], 0})
	}
}
