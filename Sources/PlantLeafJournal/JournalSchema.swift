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
///
/// Version 3: an event's "blocked" columns are the time its camera saw no leaf or no picture
/// while it lasted (such readings say nothing about the plant, so they neither end an event nor
/// start one): `blocked_ms` the gaps that ended, `blocked_since` the start of the one going on.
/// `reading_counts` holds how many readings of each verdict each source made in each quarter
/// hour (every UTC offset in use is whole quarter hours, so any day's or week's counts add up
/// from them): triggers keep it as readings are written and deleted, in the same transaction,
/// so the history's counts per day read a few hundred rows rather than a week's million readings;
/// `first_id`, the lowest row number counted there (deletions leave it lower, never higher), is
/// where a page of readings from a time on starts looking, in row order. Keyed by quarter first:
/// the history asks for the quarters from a time on.
package enum JournalSchema {
    /// A quarter hour in milliseconds: the period `reading_counts` counts by.
    package static let countPeriodMilliseconds: Int64 = 900_000

    /// The quarter hour of `column` (milliseconds), rounded down for times before 1970 too.
    static func quarter(_ column: String) -> String {
        "((\(column) - (\(column) < 0) * \(countPeriodMilliseconds - 1)) / \(countPeriodMilliseconds))"
    }

    /// The top class of a packed `top` column: its first class's number, as four bytes.
    static func topClass(_ column: String) -> String { "substr(\(column), 1, 4)" }

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
        // Version 3.
        """
        ALTER TABLE events ADD COLUMN blocked_ms INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE events ADD COLUMN blocked_since INTEGER;
        CREATE TABLE reading_counts(source INTEGER NOT NULL, quarter INTEGER NOT NULL, verdict TEXT NOT NULL, count INTEGER NOT NULL,
            first_id INTEGER NOT NULL, PRIMARY KEY(quarter, source, verdict)) WITHOUT ROWID;
        CREATE TRIGGER readings_counted AFTER INSERT ON readings BEGIN
            INSERT INTO reading_counts(source, quarter, verdict, count, first_id) VALUES (NEW.source, \(quarter("NEW.time")), NEW.verdict, 1, NEW.id)
                ON CONFLICT(quarter, source, verdict) DO UPDATE SET count = count + 1, first_id = min(first_id, excluded.first_id);
        END;
        CREATE TRIGGER readings_uncounted AFTER DELETE ON readings BEGIN
            UPDATE reading_counts SET count = count - 1 WHERE source = OLD.source AND quarter = \(quarter("OLD.time")) AND verdict = OLD.verdict;
            DELETE FROM reading_counts WHERE source = OLD.source AND quarter = \(quarter("OLD.time")) AND verdict = OLD.verdict AND count <= 0;
        END;
        INSERT INTO reading_counts(source, quarter, verdict, count, first_id)
            SELECT source, \(quarter("time")) AS q, verdict, count(*), min(id) FROM readings GROUP BY source, q, verdict;
        """,
        // Version 4: where an answer came from (readings before it have NULL, read as the model's).
        """
        ALTER TABLE readings ADD COLUMN answer_from TEXT;
        ALTER TABLE readings ADD COLUMN taught TEXT;
        ALTER TABLE readings ADD COLUMN taught_similarity REAL;
        """,
        // Version 5: diagnoses counted by their top class (the first packed class of `top`, its
        // four bytes as they are) per quarter hour, as verdicts are in reading_counts: the
        // history tells healthy leaves from problems from these few rows, not from every reading.
        """
        CREATE TABLE diagnosis_counts(source INTEGER NOT NULL, quarter INTEGER NOT NULL, class BLOB NOT NULL, count INTEGER NOT NULL,
            PRIMARY KEY(quarter, source, class)) WITHOUT ROWID;
        CREATE TRIGGER diagnoses_counted AFTER INSERT ON readings WHEN NEW.verdict = 'diagnosis' BEGIN
            INSERT INTO diagnosis_counts(source, quarter, class, count) VALUES (NEW.source, \(quarter("NEW.time")), \(topClass("NEW.top")), 1)
                ON CONFLICT(quarter, source, class) DO UPDATE SET count = count + 1;
        END;
        CREATE TRIGGER diagnoses_uncounted AFTER DELETE ON readings WHEN OLD.verdict = 'diagnosis' BEGIN
            UPDATE diagnosis_counts SET count = count - 1 WHERE source = OLD.source AND quarter = \(quarter("OLD.time")) AND class = \(topClass("OLD.top"));
            DELETE FROM diagnosis_counts WHERE source = OLD.source AND quarter = \(quarter("OLD.time")) AND class = \(topClass("OLD.top")) AND count <= 0;
        END;
        INSERT INTO diagnosis_counts(source, quarter, class, count)
            SELECT source, \(quarter("time")) AS q, \(topClass("top")) AS c, count(*) FROM readings WHERE verdict = 'diagnosis' GROUP BY source, q, c;
        """,
    ]

    /// The version this build writes.
    static var currentVersion: Int { migrations.count }
}
