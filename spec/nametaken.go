package spec

import "fmt"

// NameHolder is what is known of the sentinel of an owner that has a
// name another sentinel is refused: its name as stored ("" if unknown),
// its id (0 if unknown), and, if its stored form cannot be read, why.
type NameHolder struct {
	Name       string
	ID         int64
	Unreadable error
	// At is where its name is in the file it was checked from in this
	// run (Stored.At), invalid for a stored sentinel.
	At Position
}

// NameTakenMessage returns the message that sentinel name name is
// taken, another sentinel of the owner, holder, having it: one wording
// wherever it is found (the check, the store's refusal of a write, in
// the editor, the API and the command line), naming the holder as far
// as it is known. Long names are shortened as in every diagnostic. The
// store's own refusal (vigil.SentinelNameTakenError) words it so too; the
// store conformance suite holds the two to one message.
func NameTakenMessage(name string, holder NameHolder) string {
	who := "another of your sentinels"
	switch {
	case holder.Name != "" && holder.At.IsValid():
		who = fmt.Sprintf("your sentinel %s at %s", short(holder.Name), holder.At)
	case holder.Name != "" && holder.ID != 0:
		who = fmt.Sprintf("your sentinel %s (sentinel %d)", short(holder.Name), holder.ID)
	case holder.Name != "":
		who = "your sentinel " + short(holder.Name)
	}
	has := "has it"
	if holder.Unreadable != nil {
		has = fmt.Sprintf("has it, whose stored form cannot be read (%v)", holder.Unreadable)
	}
	return fmt.Sprintf("sentinel name %s is taken: %s %s; choose another name", short(name), who, has)
}
