/// The journal's tables, version by version. A new version appends its migration, the SQL that
/// takes a journal of the version before to it; a journal is taken through each in turn.
///
/// Why these columns: a reading is about 150 bytes on disk. Its source and classes are numbers
/// into small tables; "top" packs each class as its number (UInt32) and score (Float32), eight
/// bytes a class, little-endian; times are milliseconds since the epoch beside the UTC offset
/// the reading was written with. Events' pictures have a table of their own: a picture that goes
/// frees its pages whole, where a column set to NULL would leave its row's page mostly empty.
/// Snapshots are a camera's first frame of each hour (hours since the epoch), the day's strip.
/// Readings' pictures (uploads' with serve --keep-upload-photos) have a table of their own for
/// the same reason as events'.
package enum JournalSchema {
    package static let migrations: [String] = [
        // Version 1.
        """
        CREATE TABLE sources(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE classes(id INTEGER PRIMARY KEY, model_index INTEGER NOT NULL, label TEXT NOT NULL, UNIQUE(model_index, label));
        CREATE TABLE readings(id INTEGER PRIMARY KEY, time INTEGER NOT NULL, utc_offset INTEGER NOT NULL,
            source INTEGER NOT NULL REFERENCES sources(id), verdict TEXT NOT NULL, reason TEXT, top BLOB NOT NULL,
            leaf_likeness REAL, check_skipped TEXT, frame INTEGER, age_ms REAL, read_ms REAL, prepare_ms REAL NOT NULL,
            invoke_ms REAL NOT NULL, postprocess_ms REAL, generalist_ms REAL, capture_fps REAL, inference_fps REAL,
            dropped INTEGER, saved TEXT);
        CREATE INDEX readings_by_time ON readings(time);
        CREATE TABLE events(id INTEGER PRIMARY KEY, source INTEGER NOT NULL REFERENCES sources(id), verdict TEXT NOT NULL,
            class INTEGER REFERENCES classes(id), start INTEGER NOT NULL, start_offset INTEGER NOT NULL,
            end INTEGER, end_offset INTEGER);
        CREATE INDEX events_by_start ON events(start);
        CREATE TABLE pictures(event INTEGER PRIMARY KEY REFERENCES events(id), jpeg BLOB NOT NULL);
        CREATE TABLE snapshots(id INTEGER PRIMARY KEY, source INTEGER NOT NULL REFERENCES sources(id), hour INTEGER NOT NULL,
            utc_offset INTEGER NOT NULL, jpeg BLOB NOT NULL, UNIQUE(source, hour));
        """,
        // Version 2.
        """
        CREATE TABLE reading_pictures(reading INTEGER PRIMARY KEY REFERENCES readings(id), jpeg BLOB NOT NULL);
        """,
        // Version 3: where an answer came from (readings before it have NULL, read as the model's).
        """
        ALTER TABLE readings ADD COLUMN answer_from TEXT;
        ALTER TABLE readings ADD COLUMN taught TEXT;
        ALTER TABLE readings ADD COLUMN taught_similarity REAL;
        """,
    ]

    /// The version this build writes.
    static var currentVersion: Int { migrations.count }
}
