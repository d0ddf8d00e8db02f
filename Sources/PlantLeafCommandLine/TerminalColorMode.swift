import PlantLeafCore
import PlantLeafCamera
/// How much colour a terminal preview may use, read from the environment the program runs in.
///
/// Over SSH the environment is all there is to go on: a terminal cannot be asked what it shows
/// without reading a reply from stdin, which the live camera view does not own.
public enum TerminalColorMode: String, Sendable, CaseIterable {
    /// 24-bit colour: `ESC[38;2;R;G;Bm` and `ESC[48;2;R;G;Bm`.
    case trueColor = "truecolor"
    /// The xterm 256-colour palette: `ESC[38;5;Nm` and `ESC[48;5;Nm`.
    case palette256 = "256"
    /// No escapes at all: shading characters by luminance.
    case grey
    /// No preview.
    case none

    /// The mode for a terminal with these environment variables. The first rule that applies wins:
    ///
    /// 1. `NO_COLOR` set to a non-empty value → ``grey``. no-color.org asks for no ANSI colour
    ///    "when present and not an empty string (regardless of its value)"; a picture in shading
    ///    characters keeps that promise and still shows where the camera points.
    /// 2. `TERM` unset, empty or `dumb` → ``none``: such a terminal (an editor's shell buffer, a
    ///    pipe into a log viewer) has no idea of cursor movement or cells.
    /// 3. `COLORTERM` is `truecolor` or `24bit` (any case) → ``trueColor``: the variable terminals
    ///    that do 24-bit colour set, and which ssh passes on when the server accepts it.
    /// 4. `TERM` contains `256color` (`xterm-256color`, `screen-256color`, `tmux-256color`) → ``palette256``.
    /// 5. Anything else → ``grey``: a terminal of unknown abilities may not understand SGR at all.
    public static func detect(environment: [String: String]) -> TerminalColorMode {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .grey }
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return .none }
        if let colorTerm = environment["COLORTERM"]?.lowercased(), colorTerm == "truecolor" || colorTerm == "24bit" {
            return .trueColor
        }
        if term.contains("256color") { return .palette256 }
        return .grey
    }
}
