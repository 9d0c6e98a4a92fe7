package dev.strata.cli.view;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.version.Version;
import dev.strata.hcl.Diagnostic;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The messages of Terraform's machine-readable UI streams ({@code plan -json}, {@code apply -json},
 * {@code init -json}): one JSON object a line, each with {@code @level}, {@code @message}, {@code @module},
 * {@code @timestamp} and {@code type}.
 */
final class UiJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private UiJson() {}

    /** An empty JSON object, for a message's nested parts. */
    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** A message of {@code type} at {@code level} ("info", "warn", "error"), for the caller to add its fields to. */
    static ObjectNode message(String level, String text, String type) {
        ObjectNode n = object();
        n.put("@level", level);
        n.put("@message", text);
        n.put("@module", "strata.ui");
        n.put("@timestamp", OffsetDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        n.put("type", type);
        return n;
    }

    /** The first message of every stream: the version of Strata and of the stream's format. */
    static ObjectNode version() {
        ObjectNode v = message("info", "Strata " + Version.current(), "version");
        v.put("terraform", Version.current());
        v.put("ui", "1.2");
        return v;
    }

    /** A {@code diagnostic} message: severity, summary, detail and, where it has one, the range it is about. */
    static ObjectNode diagnostic(Diagnostic d) {
        ObjectNode m = message(
                d.isError() ? "error" : "warn", (d.isError() ? "Error: " : "Warning: ") + d.summary(), "diagnostic");
        ObjectNode x = m.putObject("diagnostic");
        x.put("severity", d.isError() ? "error" : "warning");
        x.put("summary", d.summary());
        x.put("detail", d.detail() == null ? "" : d.detail());
        if (d.subject() != null) {
            ObjectNode r = x.putObject("range");
            r.put("filename", d.subject().filename());
            r.putObject("start")
                    .put("line", d.subject().start().line())
                    .put("column", d.subject().start().column())
                    .put("byte", d.subject().start().byteOffset());
            r.putObject("end")
                    .put("line", d.subject().end().line())
                    .put("column", d.subject().end().column())
                    .put("byte", d.subject().end().byteOffset());
        }
        return m;
    }
}
