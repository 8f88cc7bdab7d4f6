package toolserver

import (
	"context"
	"database/sql"
)

// A create the gateway deduplicates leaves two records: the artifact on the
// forge and the gateway's memo of it. When the forge keeps its artifacts in
// the gateway's own database, both can commit in one transaction: the
// gateway begins it, carries it to the provider in the call's context
// (WithTx), and a provider that writes to that database joins it (TxOn)
// instead of beginning its own. A provider that cannot join keeps the
// gateway's lease protocol.

// TxJoiner is implemented by providers whose writes can join a transaction
// on the gateway's database.
type TxJoiner interface {
	// JoinsTx reports whether the provider writes to db and, given a
	// context from WithTx for a transaction on db, writes inside that
	// transaction without committing it.
	JoinsTx(db *sql.DB) bool
}

type txKey struct{}

// carriedTx is a transaction and the database it runs on.
type carriedTx struct {
	db *sql.DB
	tx *sql.Tx
}

// WithTx returns ctx carrying tx, a transaction on db, for a TxJoiner to
// write in. The caller commits or rolls it back after the call.
func WithTx(ctx context.Context, db *sql.DB, tx *sql.Tx) context.Context {
	return context.WithValue(ctx, txKey{}, carriedTx{db: db, tx: tx})
}

// TxOn returns the transaction ctx carries when it runs on db, else nil: a
// provider on another database ignores it.
func TxOn(ctx context.Context, db *sql.DB) *sql.Tx {
	c, ok := ctx.Value(txKey{}).(carriedTx)
	if !ok || c.db != db {
		return nil
	}
	return c.tx
}
