package postgres

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// renameStoredSentinel gives sentinel id, called old, the name name
// everywhere the sentinels table keeps it: the name column, the name of
// the Create Sentinel header of its source (renamedSource) and the
// "name" member of its checked spec (renamedSpec). The editor shows the
// source and a save names the sentinel as its header does, and the
// checker knows a stored sentinel by its spec's name: a rename of the
// column alone was undone by the next save of the unchanged source, as a
// name taken. A source or spec that does not name old is left as it is.
func renameStoredSentinel(ctx context.Context, tx execer, id int64, old, name string) error {
	rows, err := tx.QueryContext(ctx, "SELECT source, spec FROM sentinels WHERE id = $1", id)
	if err != nil {
		return fmt.Errorf("read sentinel %d to rename it %q: %w", id, name, err)
	}
	var source string
	var js []byte
	found := rows.Next()
	if found {
		err = rows.Scan(&source, &js)
	}
	rows.Close()
	if err == nil {
		err = rows.Err()
	}
	if err != nil {
		return fmt.Errorf("read sentinel %d to rename it %q: %w", id, name, err)
	}
	if !found {
		return fmt.Errorf("read sentinel %d to rename it %q: %w", id, name, sql.ErrNoRows)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE sentinels SET name = $1, source = $2, spec = $3 WHERE id = $4",
		name, renamedSource(source, old, name), specValue(renamedSpec(js, old, name)), id); err != nil {
		return fmt.Errorf("rename sentinel %d to %q: %w", id, name, err)
	}
	return nil
}

// renamedSource returns source with the name of the Create Sentinel
// header that names old (vigil.SameSentinelName) replaced by name, at the
// name's bytes as the parser found them (written decomposed, they are
// longer than the name): every other byte, comments included, is kept.
// A source that holds no such header, or more than one, is returned as
// it is.
func renamedSource(source, old, name string) string {
	src := []byte(source)
	f, _ := spec.Parse("", src) // a partial tree still places its headers
	at := -1
	for _, s := range f.Sentinels {
		if s.Name == nil || !s.Name.NamePos.IsValid() || !vigil.SameSentinelName(s.Name.Name, old) {
			continue
		}
		if at >= 0 {
			return source
		}
		at = s.Name.NamePos.Offset
	}
	if at < 0 || at > len(src) {
		return source
	}
	var sc spec.Scanner
	sc.Init(src[at:], nil)
	if _, tok, lit := sc.Scan(); tok == spec.IDENT && vigil.SameSentinelName(spec.CanonicalName(lit), old) {
		return source[:at] + name + source[at+len(lit):]
	}
	return source
}

// renamedSpec returns the checked spec js (spec.Checked's JSON) with its
// top-level "name" member, when it names old, replaced by name, every
// other byte kept. A spec that is not a JSON object naming old is
// returned as it is.
func renamedSpec(js []byte, old, name string) []byte {
	dec := json.NewDecoder(bytes.NewReader(js))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return js
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return js
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return js
		}
		if key != "name" {
			continue
		}
		var cur string
		if err := json.Unmarshal(raw, &cur); err != nil || !vigil.SameSentinelName(cur, old) {
			return js
		}
		v, err := json.Marshal(name)
		if err != nil {
			return js
		}
		end := int(dec.InputOffset())
		start := end - len(raw)
		out := make([]byte, 0, len(js)-len(raw)+len(v))
		out = append(append(append(out, js[:start]...), v...), js[end:]...)
		return out
	}
	return js
}
