package vigil

import (
	"context"
	"errors"
	"time"
)

// Store is every store interface at once: what a backend adapter
// (internal/sqlite, internal/postgres) provides and what cmd/vigil wires into
// the services. Each method is one transaction.
//
// A time a store is given to keep (a version's, a sentinel's, a change's,
// a notification's, a check record's, a token's, or one a method stores:
// a lease's end, a next attempt, a user's touch, a token's use) is one every store keeps (StorableTime: 1677-09-21
// to 2262-04-11), or the zero time where none is allowed: both backends
// refuse any other with EINVALID naming the field, storing nothing. A
// time that only bounds a query (VersionFilter.Since, ClaimDueSentinels'
// now) may be any.
//
// Times are kept to the microsecond, the rest truncated (toward the past,
// before 1970 too), on both backends (PostgreSQL keeps no more): a time
// stored reads back as t.Truncate(time.Microsecond), whichever the
// backend, and one a store sets itself (CreatedAt, UpdatedAt) is set to
// the time it keeps. A bound of a query is truncated so too. (SQLite's
// migration 0117 truncated the times stored before.)
type Store interface {
	ResourceStore
	VersionStore
	SentinelStore
	UserStore
	ChangeStore
	OutboxStore
	FlashStore
	Close() error
}

// Transactor is a store that runs many of its resource and version
// methods as one transaction, so that a batch of writes (the import of an
// archive) is stored whole or not at all. Both backends implement it.
type Transactor interface {
	// InTransaction runs fn with a store whose methods run in one
	// transaction, committed if fn returns nil and rolled back if it
	// returns an error, panics, or ctx is done first: no other reader
	// sees what fn wrote before the commit, and none sees it after a
	// rollback. A method of tx that refuses what it is asked (EINVALID,
	// ECONFLICT, ENOTFOUND) leaves nothing of it and the transaction
	// usable: fn may go on. Any other error of a read or a write (the
	// database failing it) may fail the whole transaction, as on
	// PostgreSQL: the reads and writes after it fail with that error
	// too, and InTransaction returns fn's error, or that one if fn
	// returns nil, and commits nothing. tx reads what fn wrote. It
	// must not be used after fn returns, nor from several goroutines at
	// once. While fn runs, the store's other writes wait (SQLite has one
	// writer: a write of another process waits up to its busy timeout,
	// then fails with EUNAVAILABLE) or, on PostgreSQL, those to the
	// resources fn appended to, or re-encoded a body of (ReplaceBody), do.
	InTransaction(ctx context.Context, fn func(tx TxStore) error) error
}

// ErrCommitUnknown is wrapped by the error of a Transactor's
// InTransaction whose commit failed without the store knowing whether it
// took effect (the connection to PostgreSQL lost as it committed): what
// fn wrote may be stored, all of it, or none of it. A commit that fails
// otherwise stores nothing.
var ErrCommitUnknown = errors.New("the commit failed, and whether it took effect is not known")

// TxStore is what a store offers inside a transaction (Transactor).
type TxStore interface {
	ResourceStore
	VersionStore
}

// ResourceStore keeps resources, one per canonical URL. The id of a
// resource, or of a version, is never given again once it is deleted: a
// reader that kept one (the monitor) finds it live or ENOTFOUND, never
// another page's.
type ResourceStore interface {
	// EnsureResource returns the resource of the canonical form of rawURL,
	// creating it if needed. It returns EINVALID if rawURL is not an
	// absolute http(s) URL, or if its host is one DNS refuses (an empty
	// label, a label over 63 bytes, a name over 253: spec.CheckHostName,
	// which CanonicalURL leaves to its callers), naming the host and what
	// is wrong with it, so that no resource is stored under a host no
	// fetch can reach.
	EnsureResource(ctx context.Context, rawURL string) (*Resource, error)
	// FindResourceByID returns ENOTFOUND if the resource does not exist.
	FindResourceByID(ctx context.Context, id int64) (*Resource, error)
	// FindResourceByURL canonicalises rawURL first; it returns EINVALID for
	// a bad URL and ENOTFOUND if no resource has it.
	FindResourceByURL(ctx context.Context, rawURL string) (*Resource, error)
	// FindResources returns the resources matching f in id order and the
	// number matching without Offset and Limit.
	FindResources(ctx context.Context, f ResourceFilter) ([]*Resource, int, error)
	// DeleteResource deletes a resource with its versions, bodies and links.
	// It returns ENOTFOUND if the resource does not exist.
	DeleteResource(ctx context.Context, id int64) error
}

// BodyEncoding is how one version's body is kept.
type BodyEncoding string

const (
	// BodyFull: the body is the blob named by the version's ContentHash.
	BodyFull BodyEncoding = "full"
	// BodyPatch: the body is StoredBody.Data applied to the body of version
	// StoredBody.BaseID (a newer version of the same resource).
	BodyPatch BodyEncoding = "patch"
)

// Blob is a content-addressed body: Hash is the hex SHA-256 of the raw
// body, Size its raw length, Data its compressed form. A blob is stored once
// however many versions, of however many resources, are kept in full with
// that content, and deleted when the last of them goes. Storing a blob
// whose hash is already stored keeps the smaller of the two encodings.
type Blob struct {
	Hash string
	Size int64
	Data []byte
}

// StoredBody is the encoding of one version's body, as the warehouse service
// chose it. The store keeps it and never interprets Data or TreeDelta.
type StoredBody struct {
	VersionID int64
	Encoding  BodyEncoding
	BaseID    int64  // BodyPatch: the version Data is a patch against
	Data      []byte // BodyPatch: the encoded patch
	// TreeDelta is an optional encoded tree delta from the next newer
	// version's document back to this version's document.
	TreeDelta []byte
}

// BodySize is the stored size of one version's body, for retention and
// statistics.
type BodySize struct {
	VersionID int64
	Seq       int64
	FetchedAt time.Time
	Encoding  BodyEncoding
	Hash      string
	Bytes     int64 // patch bytes, or the compressed size of the blob (shared blobs counted in each version)
	TreeBytes int64
}

// StorageStats sums what a store holds for bodies.
type StorageStats struct {
	Versions       int64
	Blobs          int64
	BlobBytes      int64 // compressed bytes of all blobs
	Patches        int64
	PatchBytes     int64
	TreeDeltaBytes int64
}

// Append is a new version and everything that changes with it, written in
// one transaction.
type Append struct {
	// Version is the new version's metadata; the store sets ID and Seq.
	Version *Version
	// Blob is the new version's body in full. It is stored unless a blob
	// with its hash exists (the smaller encoding of the two is kept). Its
	// Hash must equal Version.ContentHash.
	Blob *Blob
	// RepairBlob says that the stored blob of Blob.Hash was found
	// corrupt (it does not decompress, or not to its hash): Blob
	// replaces it whatever their sizes, in the append's transaction, so
	// that every version kept in full with that content reads again.
	// The store does not read Data: the caller vouches for it.
	RepairBlob bool
	// Links are the new version's outgoing links (VersionID is set by the
	// store).
	Links []*Link
	// PrevID is the id of the resource's newest version that the caller
	// built this append on, 0 if the resource had none. The store returns
	// ECONFLICT if the newest version is another one.
	PrevID int64
	// Prev, if not nil, replaces the stored body of version PrevID (its
	// VersionID must be PrevID). A patch is always against the new version:
	// the store sets its BaseID.
	Prev *StoredBody
	// PrevBlob, if not nil, is a better (smaller) encoding of the previous
	// version's blob, which stays in full; the store keeps the smaller.
	PrevBlob *Blob
	// Existing is set by AppendVersion: true when the resource held the
	// fetch already, so that nothing was stored and Version is the stored
	// version; false when it stored the new version.
	Existing bool
}

// VersionStore keeps versions, their bodies (content-addressed blobs and
// patches) and their links.
type VersionStore interface {
	// AppendVersion stores a new version of a resource as described by a.
	// It returns EINVALID for invalid input, ENOTFOUND if the resource does
	// not exist, and ECONFLICT if the resource's newest version is not
	// a.PrevID. An append of a fetch the resource holds already (a
	// version with the same FetchedAt, to the microsecond,
	// ContentHash, Status and Error), whatever a.PrevID, stores nothing
	// and sets a.Version to that version: looked for under the lock that
	// serialises the resource's appends, so that two writers of one fetch
	// (two imports of one file at once) store it once; a.Existing says
	// which of them stored it.
	AppendVersion(ctx context.Context, a *Append) error
	// FindVersionByID returns ENOTFOUND if the version does not exist.
	FindVersionByID(ctx context.Context, id int64) (*Version, error)
	// FindVersionBySeq returns ENOTFOUND if the resource has no version seq.
	FindVersionBySeq(ctx context.Context, resourceID, seq int64) (*Version, error)
	// LatestVersion returns ENOTFOUND if the resource has no version.
	LatestVersion(ctx context.Context, resourceID int64) (*Version, error)
	// LatestVersionByURL returns the resource of the canonical form of
	// rawURL and its newest version, nil if it has none, in one read: what
	// FindResourceByURL and LatestVersion return together. It returns
	// EINVALID for a bad URL and ENOTFOUND if no resource has the URL.
	LatestVersionByURL(ctx context.Context, rawURL string) (*Resource, *Version, error)
	// VersionAt returns the newest version fetched at or before t, and
	// ENOTFOUND if there is none.
	VersionAt(ctx context.Context, resourceID int64, t time.Time) (*Version, error)
	// FindVersions returns the versions matching f and the number matching
	// without Offset and Limit.
	FindVersions(ctx context.Context, f VersionFilter) ([]*Version, int, error)
	// Body returns the stored encoding of a version's body; ENOTFOUND if the
	// version does not exist.
	Body(ctx context.Context, versionID int64) (*StoredBody, error)
	// FindBlob returns ENOTFOUND if no blob has the hash.
	FindBlob(ctx context.Context, hash string) (*Blob, error)
	// ReplaceBody re-encodes a version's body (for instance to materialise a
	// full copy); blob, if not nil, is stored when absent. It returns
	// ENOTFOUND if the version does not exist and EINVALID if a patch's base
	// is not another version of the same resource or is read through the
	// version (a cycle of patches, which no version of it could be read
	// from).
	ReplaceBody(ctx context.Context, b *StoredBody, blob *Blob) error
	// RecordReadAsText records why a version's body is read as its source
	// text ("" for a page) under the reading numbered reading
	// (Version.ReadAsText and TreeReading), for a version stored before it
	// was known. A reason recorded under a later reading is kept: one under
	// an earlier reading (an older Vigil on the same store) changes
	// nothing. It returns ENOTFOUND if the version does not exist and
	// EINVALID for a reading below 1.
	RecordReadAsText(ctx context.Context, versionID int64, reason string, reading int) error
	// FindVersionsReadAsTextUnknown returns up to limit versions, of any
	// resource, whose reason is not known under the reading numbered
	// reading (their TreeReading is below it), with an id below beforeID
	// (0: any), highest id first: the versions whose bodies the warehouse
	// reads in the background, in batches, to record their reasons. It
	// returns EINVALID for a reading or a limit below 1.
	FindVersionsReadAsTextUnknown(ctx context.Context, reading int, beforeID int64, limit int) ([]*Version, error)
	// Links returns a version's outgoing links in document order.
	Links(ctx context.Context, versionID int64) ([]*Link, error)
	// BodySizes lists the stored size of every version of a resource, oldest
	// first.
	BodySizes(ctx context.Context, resourceID int64) ([]BodySize, error)
	// DeleteVersionsBefore deletes the versions of a resource with a Seq
	// lower than seq, their links and bodies, and the blobs no longer used.
	// It returns ECONFLICT, deleting nothing, if a version that stays has a
	// body that is a patch against one that would go (the chain would
	// break), ENOTFOUND if the resource does not exist, and the number of
	// versions deleted.
	DeleteVersionsBefore(ctx context.Context, resourceID, seq int64) (int, error)
	// Stats sums the stored bodies.
	Stats(ctx context.Context) (*StorageStats, error)
}

// SentinelStore keeps sentinels and hands due ones to schedulers.
type SentinelStore interface {
	// CreateSentinel sets ID, CreatedAt and UpdatedAt, and FeedGeneration
	// to 0: a new sentinel's feed starts at generation 0, whatever s says.
	// It returns EINVALID for an invalid sentinel, ENOTFOUND if the
	// owner does not exist, and ECONFLICT (a *SentinelNameTakenError,
	// SentinelNameUsed, naming the sentinel that has the name) if the
	// owner has a sentinel of that name (SameSentinelName), storing
	// nothing; it returns no other ECONFLICT. The
	// look for the name and the insert are one atomic step: of concurrent
	// adds of one name for one owner, whatever the process, one succeeds.
	CreateSentinel(ctx context.Context, s *Sentinel) error
	// FindSentinelByID returns ENOTFOUND if the sentinel does not exist.
	FindSentinelByID(ctx context.Context, id int64) (*Sentinel, error)
	// FindSentinels returns the sentinels matching f in id order and the
	// number matching without Offset and Limit.
	FindSentinels(ctx context.Context, f SentinelFilter) ([]*Sentinel, int, error)
	// UpdateSentinel replaces name, source, spec, status, next check and
	// time zone (Sentinel.TimeZone), and sets UpdatedAt: it saves an edit
	// of the sentinel (SetSentinelStatus changes its status alone). It keeps the
	// stored FeedGeneration, which it sets in s: an update made from a
	// copy read before a rotation does not revive the revoked feed URLs.
	// It returns ENOTFOUND if the sentinel does not exist.
	UpdateSentinel(ctx context.Context, s *Sentinel) error
	// UpdateSentinels updates each sentinel of list as UpdateSentinel
	// does, all in one transaction: an edited sentinel and the ones using
	// it (whose checked forms take its pages and clauses) are saved
	// together or not at all. It returns EINVALID for an invalid sentinel
	// and ENOTFOUND if one does not exist, updating none. It returns
	// ECONFLICT (SentinelRenamesFree: a *SentinelNameTakenError) if one
	// is renamed to a name another sentinel of its owner has, under the
	// lock of CreateSentinel's look:
	// of a rename and an add of one name at once, one succeeds.
	UpdateSentinels(ctx context.Context, list []*Sentinel) error
	// SetSentinelStatus sets a sentinel's status and NextCheck, and
	// nothing else: pausing, resuming and asking for a check now change
	// when a sentinel is checked, not what it watches, so its UpdatedAt
	// (the last edit of its definition) stays. It returns EINVALID for a
	// status other than active or paused, or a NextCheck the stores
	// cannot keep, and ENOTFOUND if the sentinel does not exist.
	SetSentinelStatus(ctx context.Context, id int64, status SentinelStatus, next time.Time) error
	// UpdateSentinelsIf is UpdateSentinels with a precondition on the
	// first sentinel of list: in the same transaction, before it is
	// written, it reads that sentinel as stored, locked against every
	// other writer until the commit, and calls check with it; if check
	// returns an error, it updates none and returns that error. An edit
	// made from a copy read earlier (an HTTP If-Match on its revision)
	// cannot then overwrite one saved in between: the comparison and the
	// write are one atomic step. It returns ENOTFOUND, without calling
	// check, if that sentinel does not exist.
	UpdateSentinelsIf(ctx context.Context, list []*Sentinel, check func(stored *Sentinel) error) error
	// RotateSentinelFeed adds one to a sentinel's FeedGeneration, revoking
	// the feed URLs made with the one before, and returns the new
	// generation. Concurrent rotations each get a generation of their own.
	// Nothing else of the sentinel changes, UpdatedAt included. It returns
	// ENOTFOUND if the sentinel does not exist.
	RotateSentinelFeed(ctx context.Context, id int64) (int64, error)
	// DeleteSentinel deletes a sentinel and its changes; ENOTFOUND if absent.
	// Their notifications not yet sent become dead letters (LastError
	// SentinelRemoved), and so do its owner's that report no one change
	// (digests, failure notices) whose message names the sentinel
	// (Notification.SentinelID); the others stay, without their change.
	DeleteSentinel(ctx context.Context, id int64) error
	// ClaimDueSentinels returns up to limit active sentinels whose NextCheck
	// is at or before now, highest ClaimPriority first (then lowest id),
	// and leases them: their NextCheck moves to now+lease, so that a
	// concurrent scheduler does not claim them again before the lease
	// ends. The claimer then calls CheckedSentinel. Both stores give the
	// order of ClaimPriority, up to the precision they keep times in.
	ClaimDueSentinels(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*Sentinel, error)
	// ReleaseSentinels gives back claims that will not be checked (a
	// scheduler stopping cleanly): each sentinel of leases whose NextCheck
	// is still the lease's Until becomes due at now, instead of when the
	// lease ends. A sentinel whose NextCheck is another (checked, edited,
	// asked to be checked now, or claimed by another scheduler once the
	// lease ended), or that no longer exists, is left alone: a scheduler
	// releases only its own claims. It returns the number of sentinels
	// released.
	ReleaseSentinels(ctx context.Context, leases []SentinelLease, now time.Time) (int, error)
	// CheckedSentinel records a check at `at` and schedules the next one.
	// It returns ENOTFOUND if the sentinel does not exist.
	CheckedSentinel(ctx context.Context, id int64, at, next time.Time) error
}

// SentinelLease is one claim of ClaimDueSentinels: the claimed sentinel and
// the NextCheck the claim gave it (the claimed Sentinel's NextCheck).
type SentinelLease struct {
	SentinelID int64
	Until      time.Time
}

// UserStore keeps users and their API tokens.
type UserStore interface {
	// CreateUser sets ID, CreatedAt and UpdatedAt. It returns EINVALID for an
	// invalid user and ECONFLICT if the email is taken.
	CreateUser(ctx context.Context, u *User) error
	// FindUserByID returns ENOTFOUND if the user does not exist.
	FindUserByID(ctx context.Context, id int64) (*User, error)
	// FindUserByEmail returns ENOTFOUND if no user has the email.
	FindUserByEmail(ctx context.Context, email string) (*User, error)
	// FindUsers returns every user in id order (the operator's list: a
	// deployment has tens of users, not millions).
	FindUsers(ctx context.Context) ([]*User, error)
	// UpdateUser replaces email and name; it keeps the administrator role
	// (SetUserAdmin changes it), the password hash (SetUserPassword
	// changes it) and the time zone (SetUserTimeZone changes it),
	// whatever u holds, and sets u.Admin, u.PasswordHash and u.TimeZone
	// to the stored ones, so that a User read before a password reset
	// does not undo it. It returns ENOTFOUND if the user does not exist
	// and ECONFLICT if the email is taken.
	UpdateUser(ctx context.Context, u *User) error
	// TouchUser moves the update time of the user with id to at, or, if
	// at is not after it, to just after it (the least step the store
	// keeps), so that every touch changes it; it changes nothing else,
	// whatever was updated since the caller read the user. It returns
	// ENOTFOUND if the user does not exist.
	TouchUser(ctx context.Context, id int64, at time.Time) error
	// SetUserAdmin grants (admin true) or revokes the administrator role of
	// the user with id. It moves no update time: the user's sessions, and
	// everyone else's, go on. It returns ENOTFOUND if the user does not
	// exist and ECONFLICT when revoking the only administrator, checked in
	// the same transaction as the change, so that two revocations at once
	// never leave none.
	SetUserAdmin(ctx context.Context, id int64, admin bool) error
	// SetUserTimeZone sets the time zone of the user with id
	// (User.TimeZone: an IANA name, "" for the deployment's) and nothing
	// else. It moves no update time: the user's sessions go on. It
	// returns EINVALID for a name CheckTimeZone refuses and ENOTFOUND if
	// the user does not exist.
	SetUserTimeZone(ctx context.Context, id int64, zone string) error
	// SetUserPassword replaces the password hash of the user with id, and
	// nothing else, whatever was updated since the caller read the user
	// (a rename is kept), and moves their update time: their sessions end.
	// It returns EINVALID for an empty hash (DisableUser takes a password
	// away) and ENOTFOUND if the user does not exist.
	SetUserPassword(ctx context.Context, id int64, hash string) error
	// SetNonAdminPassword is SetUserPassword for a user who is not an
	// administrator: the role is checked in the statement that writes
	// the hash, so that a caller allowed to reset only the others'
	// passwords (an API token) never resets one granted the role after
	// it read the user. It returns ECONFLICT, changing nothing, if the
	// user is an administrator, EINVALID for an empty hash and ENOTFOUND
	// if the user does not exist.
	SetNonAdminPassword(ctx context.Context, id int64, hash string) error
	// DisableUser takes away the password and the administrator role of
	// the user with id in one transaction, and moves their update time:
	// they can no longer sign in, and their sessions end. Unless force, it
	// returns ECONFLICT, changing nothing, if they are the only user with
	// a password or the only administrator, checked in the same
	// transaction as the change, so that two at once (removals of the
	// last two, or one and a revocation) never leave none. It returns
	// ENOTFOUND if the user does not exist.
	DisableUser(ctx context.Context, id int64, force bool) error
	// DeleteUser deletes a user with their tokens and sentinels; ENOTFOUND if
	// absent.
	DeleteUser(ctx context.Context, id int64) error
	// DeleteUserWithoutSentinels deletes a user with their tokens, as
	// DeleteUser does, if they own no sentinel, and keeps them otherwise:
	// the check and the deletion are one, so that a sentinel made for the
	// user meanwhile is never removed with them. It returns ENOTFOUND if
	// the user does not exist and ECONFLICT, naming how many sentinels they
	// own, if they own any.
	DeleteUserWithoutSentinels(ctx context.Context, id int64) error
	// CreateToken sets ID and CreatedAt. It returns EINVALID for an invalid
	// token, ENOTFOUND if the user does not exist and ECONFLICT if the hash
	// is already stored.
	CreateToken(ctx context.Context, t *Token) error
	// FindTokenByHash returns the token with the hash and marks it used at
	// now. It returns EUNAUTHORIZED if no token has the hash or the token
	// is expired at now.
	FindTokenByHash(ctx context.Context, hash []byte, now time.Time) (*Token, error)
	// FindTokens returns a user's tokens.
	FindTokens(ctx context.Context, userID int64) ([]*Token, error)
	// DeleteToken returns ENOTFOUND if the token does not exist.
	DeleteToken(ctx context.Context, id int64) error
}

// ChangeStore keeps the changes that sentinels found.
type ChangeStore interface {
	// CreateChange sets ID. It returns EINVALID for an invalid change and
	// ENOTFOUND if the sentinel or resource does not exist.
	CreateChange(ctx context.Context, c *Change) error
	// FindChangeByID returns ENOTFOUND if the change does not exist.
	FindChangeByID(ctx context.Context, id int64) (*Change, error)
	// FindChanges returns the changes matching f, newest first, and the
	// number matching without Offset and Limit.
	FindChanges(ctx context.Context, f ChangeFilter) ([]*Change, int, error)
	// CountChangesBySentinel returns the number of changes matching f
	// (Offset and Limit aside) of each sentinel that has any, in one read
	// where FindChanges would take one a sentinel.
	CountChangesBySentinel(ctx context.Context, f ChangeFilter) (map[int64]int, error)
	// FindChangePages returns the distinct pages the changes matching f
	// name (Change.Named: the resource each is recorded on, the pages its
	// records list), each with its sentinel. The store indexes them as
	// changes are written, so that the pages of a sentinel with thousands
	// of changes are read without reading the changes.
	FindChangePages(ctx context.Context, f ChangePageFilter) ([]ChangePage, error)
}

// OutboxStore is the notification outbox: entries are enqueued, claimed by
// a delivery worker under a lease, and acknowledged as sent, failed (to be
// retried) or dead.
type OutboxStore interface {
	// EnqueueNotification sets ID, CreatedAt, State (pending) and, if zero,
	// NextAttempt (now). It returns EINVALID for an invalid entry.
	EnqueueNotification(ctx context.Context, n *Notification) error
	// FindNotificationByID returns ENOTFOUND if the entry does not exist.
	FindNotificationByID(ctx context.Context, id int64) (*Notification, error)
	// FindNotifications returns entries matching f and the number matching
	// without Offset and Limit.
	FindNotifications(ctx context.Context, f NotificationFilter) ([]*Notification, int, error)
	// ClaimNotifications returns up to limit pending or failed entries due at
	// or before now, in the order they were queued (ID; a retried dead
	// letter is queued again when it is retried, see RetryNotification),
	// and leases them:
	// NextAttempt moves to now+lease and Attempts grows by one, so that no
	// other worker claims them before the lease ends. It returns no entry
	// while an earlier pending or failed one to the same address (Channel
	// and Target) is not due (waiting for its retry, or claimed by another
	// worker), so that the entries to an address are delivered in the order
	// they were queued, across claims and workers; a dead or sent entry
	// holds nothing back. Its work is bounded by limit: it reads some
	// limit entries (and the first undelivered entry of each address that
	// comes before them), however many are queued behind them.
	ClaimNotifications(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*Notification, error)
	// ReleaseNotification gives back the claim of entry id that a worker
	// which stops did not see through: the entry is due at now, the
	// claim's attempt not counted. attempts is the entry's Attempts as
	// the claim returned it; an entry claimed again since (the lease
	// ended), or sent, failed or dead meanwhile, stays as it is, as does
	// a missing one.
	ReleaseNotification(ctx context.Context, id int64, attempts int, now time.Time) error
	// MarkNotificationSent records delivery; ENOTFOUND if absent.
	MarkNotificationSent(ctx context.Context, id int64, at time.Time) error
	// MarkNotificationFailed records a failed attempt with its error (as
	// StorableText: an answer's bytes that are no text replaced) and
	// the time of the next one; ENOTFOUND if absent. A dead or sent entry
	// stays as it is: the attempt ended after its sentinel was removed, or
	// after another worker, whose claim followed the end of this one's
	// lease, delivered it.
	MarkNotificationFailed(ctx context.Context, id int64, errMsg string, next time.Time) error
	// MarkNotificationDead gives up on an entry (dead letter), its error
	// kept as StorableText; ENOTFOUND if absent. A sent entry stays sent, and a dead letter given up because
	// its sentinel was removed keeps that LastError (SentinelRemoved).
	MarkNotificationDead(ctx context.Context, id int64, errMsg string) error
	// RetryNotification gives a dead letter another chance, asked for by
	// its user: it is pending again, due at r.At, to r.Target if that is
	// not "", its Attempts counted afresh from 0 and its LastError kept
	// until the next attempt. It is queued again, keeping its ID: it takes
	// its place in its address's queue after the entries queued before the
	// retry, which were let pass it while it was dead and do not wait for
	// it, and before those queued after the retry, which do, as for a
	// message queued at the retry (ClaimNotifications).
	// ENOTFOUND if absent; ECONFLICT if it is not a dead letter, or is one
	// because its sentinel was removed (LastError SentinelRemoved), or
	// r.SentinelID is not 0 and that sentinel does not exist (a message
	// saying SentinelRemoved). The check and the change are one
	// transaction: a removal of the sentinel comes wholly before the
	// retry, which fails, or wholly after it, which gives the retried
	// letter up as it does the sentinel's other letters not yet sent.
	// A retry to a target other than the letter's own (r.Target) is
	// refused too, with RetryDuplicate's ECONFLICT, if that target has a
	// sibling of the letter (FindNotificationSibling) in any state: it
	// has been sent the message, or will be, or its own dead letter is
	// the one to retry; a retry must not send it twice. That check is in
	// the same transaction, so that two retries moved to one target
	// send it once.
	RetryNotification(ctx context.Context, id int64, r NotificationRetry) error
	// FindNotificationSibling returns the sibling of entry id to target:
	// another entry of the same message by the same channel (the monitor
	// writes one a contact of a sentinel for each message). Entries of a
	// change are siblings if they are of the same change; entries of no
	// change (a digest, the notice that a page fails or works again), if
	// they are of the same user and carry the same payload. The oldest,
	// if there are several; ENOTFOUND if there is none, or no entry id.
	FindNotificationSibling(ctx context.Context, id int64, target string) (*Notification, error)
	// DeleteNotificationsBefore deletes up to limit entries that are done
	// with and were last touched before `before` (the outbox's retention),
	// and returns how many it deleted: dead letters whose CreatedAt and
	// NextAttempt (the end of their last claim's lease, or when they
	// were due if never claimed) are before it, then sent entries whose
	// CreatedAt, NextAttempt and SentAt are, each kind oldest NextAttempt
	// first. A pending or failed entry is never deleted. Nor is a sent
	// entry while it has a sibling (FindNotificationSibling: the same
	// message by the same channel) that is pending, failed, or a dead
	// letter that may be retried (not given up as SentinelRemoved): a
	// retry of that letter moved to the sent one's target would not be
	// refused (RetryDuplicate) and would send the message there twice.
	// It stays until its siblings are sent or deleted; a dead sibling
	// deleted by the same call no longer holds it. before is a bound
	// (the zero time deletes nothing). It returns EINVALID if limit is
	// not positive. Each call is one short transaction: a caller deletes
	// a large backlog in several, until one deletes fewer than limit.
	// The ids of deleted entries are never given again.
	DeleteNotificationsBefore(ctx context.Context, before time.Time, limit int) (int, error)
}

// BodyCodec compresses bodies and encodes one body as a byte-exact patch
// against another. internal/zstd implements it; the warehouse service uses
// it without knowing the format.
type BodyCodec interface {
	// Compress returns body compressed, for keeping.
	Compress(body []byte) ([]byte, error)
	// CompressFast returns body compressed faster and larger, for a body
	// that will likely be re-encoded soon (the newest version of a
	// resource, which becomes a patch when the next one arrives).
	CompressFast(body []byte) ([]byte, error)
	// Decompress reverses Compress.
	Decompress(data []byte) ([]byte, error)
	// Diff encodes target as a patch against base.
	Diff(base, target []byte) ([]byte, error)
	// Patch returns target from base and Diff(base, target).
	Patch(base, patch []byte) ([]byte, error)
}
