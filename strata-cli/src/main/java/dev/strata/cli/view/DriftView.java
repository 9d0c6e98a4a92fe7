package dev.strata.cli.view;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.lang.value.ConsoleFormat;
import dev.strata.state.PgDriftReports;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * {@code strata drift}: what changed outside Strata, per object and attribute, as text a person
 * reads or (with {@code -json}) one JSON document per report.
 */
public abstract sealed class DriftView {
    final View view;

    private DriftView(View view) {
        this.view = view;
    }

    public static DriftView of(Terminal terminal, boolean json) {
        return json ? new Json(new View(terminal)) : new Human(new View(terminal));
    }

    public View view() {
        return view;
    }

    /** One report; {@code at} is when it was made (shown under -watch). */
    public abstract void report(DriftReport report, Instant at, boolean watching);

    /** {@code drift -history}: the stored reports, newest first. */
    public abstract void history(List<PgDriftReports.Entry> entries);

    /** The report as JSON (also what a drift webhook receives). */
    public static ObjectNode json(DriftReport r, Instant at) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode n = f.objectNode();
        n.put("format_version", "1.0");
        n.put("timestamp", at.toString());
        n.put("checked", r.checked());
        n.put("drifted", r.drifted());
        ArrayNode objects = n.putArray("objects");
        for (DriftReport.Drifted d : r.objects()) {
            ObjectNode o = objects.addObject();
            o.put("address", d.address());
            o.put("type", d.type());
            o.put("action", d.action());
            ArrayNode attrs = o.putArray("attributes");
            for (DriftReport.AttributeChange a : d.attributes()) {
                ObjectNode x = attrs.addObject();
                x.put("path", a.path());
                if (a.sensitive()) {
                    x.put("sensitive", true);
                } else {
                    x.set("before", PlanJson.json(a.before()));
                    x.set("after", PlanJson.json(a.after()));
                }
            }
        }
        return n;
    }

    static final class Human extends DriftView {
        Human(View view) {
            super(view);
        }

        @Override
        public void report(DriftReport r, Instant at, boolean watching) {
            StringBuilder b = new StringBuilder();
            String when = watching ? "[" + at + "] " : "";
            if (!r.drifted()) {
                if (!watching) {
                    b.append("No drift: ")
                            .append(r.checked())
                            .append(r.checked() == 1 ? " object matches" : " objects match")
                            .append(" the state.\n");
                }
            } else {
                b.append(when)
                        .append("Drift: ")
                        .append(r.objects().size())
                        .append(" of ")
                        .append(r.checked())
                        .append(r.checked() == 1 ? " object" : " objects")
                        .append(" changed outside Strata.\n");
                for (DriftReport.Drifted d : r.objects()) {
                    b.append("\n  # ")
                            .append(d.address())
                            .append(d.action().equals("delete") ? " has been deleted" : " has changed")
                            .append('\n');
                    for (DriftReport.AttributeChange a : d.attributes()) {
                        b.append("    ~ ").append(a.path()).append(": ");
                        if (a.sensitive()) {
                            b.append("(sensitive value)");
                        } else {
                            b.append(oneLine(ConsoleFormat.render(a.before())))
                                    .append(" -> ")
                                    .append(oneLine(ConsoleFormat.render(a.after())));
                        }
                        b.append('\n');
                    }
                }
            }
            view.out().print(b);
            view.out().flush();
        }

        @Override
        public void history(List<PgDriftReports.Entry> entries) {
            if (entries.isEmpty()) {
                view.out().println("No drift reports are stored for this workspace yet.");
                view.out().flush();
                return;
            }
            StringBuilder b = new StringBuilder(
                    String.format("%-24s %-8s %-8s %s%n", "CHECKED AT", "SERIAL", "CHECKED", "DRIFTED"));
            for (PgDriftReports.Entry e : entries) {
                b.append(String.format(
                        "%-24s %-8d %-8d %d%n",
                        e.checkedAt().truncatedTo(ChronoUnit.SECONDS), e.serial(), e.checked(), e.drifted()));
            }
            view.out().print(b);
            view.out().flush();
        }

        private static String oneLine(String s) {
            return s.indexOf('\n') < 0 ? s : s.replace("\n", " ").replaceAll(" +", " ");
        }
    }

    static final class Json extends DriftView {
        Json(View view) {
            super(view);
        }

        @Override
        public void report(DriftReport r, Instant at, boolean watching) {
            if (watching && !r.drifted()) {
                return;
            }
            view.out().println(json(r, at).toString());
            view.out().flush();
        }

        @Override
        public void history(List<PgDriftReports.Entry> entries) {
            JsonNodeFactory f = JsonNodeFactory.instance;
            ArrayNode list = f.arrayNode();
            for (PgDriftReports.Entry e : entries) {
                ObjectNode n = list.addObject();
                n.put("timestamp", e.checkedAt().toString());
                n.put("workspace", e.workspace());
                n.put("lineage", e.lineage());
                n.put("serial", e.serial());
                n.put("checked", e.checked());
                n.put("drifted", e.drifted());
                n.set("report", stored(e.report()));
            }
            view.out().println(list.toString());
            view.out().flush();
        }

        /** A stored report as it was printed; one that no longer parses is kept as its text. */
        private static JsonNode stored(String text) {
            try {
                return MAPPER.readTree(text);
            } catch (JsonProcessingException e) {
                return JsonNodeFactory.instance.textNode(text);
            }
        }

        private static final ObjectMapper MAPPER = new ObjectMapper();
    }
}
