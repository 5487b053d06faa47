package monitor

import (
	"context"
	"fmt"

	"github.com/vigil-web/vigil/tree"
)

// storedTree reads stored version id into its tree (document), its body
// read within grant, the worker's share of the memory budget. It returns
// the tree and why it is read as its source text ("" for a page). The
// reads of a version outside its comparisons use it: for its links
// (versionTree, the importance's linkKeys), for a site's scope notes
// (pageScopeMisses) and for a page's (currentScopes.load).
//
// Its two kinds of failure are told apart, for every caller alike:
//
//   - A body that cannot be read now (the store fails, the version is no
//     longer kept, ctx ends while the grant waits for its share) is an
//     error. The caller gives up what it read the version for this time,
//     says so, and reads it again at its next check: the importance is
//     not read (rather than read as if the page had no links), the scope
//     notes are looked at again.
//   - A body that does not read into a tree at all, not even as its source
//     text (larger than the parsers take), never will: that is no error,
//     and the tree is nil, a page without links and without scopes to
//     look for. Taken as an error, as the scope notes took it, it was
//     tried again, and warned of, at every check, to the same end.
func (m *Monitor) storedTree(ctx context.Context, id int64, grant *memoryGrant) (*tree.Document, string, error) {
	b, err := m.grantedBody(ctx, id, grant)
	if err != nil {
		return nil, "", err
	}
	doc, why, err := m.document(b, id)
	if err != nil {
		return nil, "", nil // not read, ever
	}
	return doc, why, nil
}

// grantedBody returns the body of version id once grant holds its share
// of the memory budget for it, to be parsed; the errors are storedTree's
// of a body that cannot be read now.
func (m *Monitor) grantedBody(ctx context.Context, id int64, grant *memoryGrant) (body, error) {
	b, err := m.body(ctx, id)
	if err != nil {
		return body{}, fmt.Errorf("read version %d: %w", id, err)
	}
	if err := grant.add(ctx, int64(len(b.data))); err != nil {
		return body{}, err
	}
	return b, nil
}
