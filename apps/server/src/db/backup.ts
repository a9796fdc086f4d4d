/**
 * Backup and restore of the application's data, one format for both databases (docs/decisions/0009-metrics-and-backups.md):
 * a gzip'd file of JSON lines.
 *
 *   {"format":"propusk-backup","format_version":1,"schema_version":"0007_…",…,"tables":[{"name","rows"},…]}
 *   {"table":"users","columns":["id","phone",…],"rows":2}
 *   ["1","+79990000001",null,…]          one line per row: each value in PostgreSQL's own text form, or null
 *   …
 *   {"end":true,"rows":1234}
 *
 * Every table of the `public` schema is written, parents before children (the order of their foreign keys),
 * rows in primary-key order, inside one read-only REPEATABLE READ transaction: one consistent snapshot while
 * the server keeps writing (PostgreSQL). Values travel as PostgreSQL's text output and are cast back to the
 * column's type on restore, so every type comes back exactly (a jsonb `null` stays distinct from SQL NULL,
 * timestamps keep their microseconds). pg-boss's schema is not written: its jobs only say *when* to look
 * again, and the worker's start-up sweep rebuilds them from the outbox (`device_commands`), which is written.
 *
 * Restore reads the file twice: once to check it whole (gzip, every line, the counts, the end), without
 * touching the database, then to load it in one transaction (tables emptied with --force, rows inserted,
 * sequences reset past the highest id). A failure at any point leaves the database as it was.
 */
export {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  type BackupHeader,
  readBackupHeader,
  secretKeyId,
  splitLines,
} from './backup/format.ts';
export { type RestoreSummary, restoreBackup } from './backup/restore.ts';
export { readSchemaVersion, readTables } from './backup/tables.ts';
export { type BackupSummary, writeBackup } from './backup/write.ts';
