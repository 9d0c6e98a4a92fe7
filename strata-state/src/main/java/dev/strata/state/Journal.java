package dev.strata.state;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceMode;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's line format (one compact JSON object per entry, newline-terminated) and its replay.
 * Every line names the lineage and serial of the snapshot it applies to, so a journal left behind by
 * a compaction that crashed between writing the snapshot and removing the journal is recognised as
 * already folded in.
 */
final class Journal {
    private static final Logger LOG = LoggerFactory.getLogger(Journal.class);

    private Journal() {}

    /** The entries that apply to a snapshot, the intents still open, and whether a torn last line was dropped. */
    record Replay(
            StateSnapshot state, int applied, List<JournalEntry.Intent> openIntents, boolean tornTail, boolean stale) {}

    static byte[] line(JournalEntry e, String lineage, long baseSerial, long seq) {
        return line(body(e), lineage, baseSerial, seq);
    }

    /**
     * The entry's own part of its line: the JSON object's members after the header (from {@code "entry"}
     * on), its closing brace and the newline, without the opening brace. It depends on the entry alone,
     * so a state manager encodes it before taking its lock, and only the header (sequence number, lineage,
     * serial) while holding it.
     */
    static byte[] body(JournalEntry e) {
        // Written member by member, not through a map of JsonValues and a writer walking it: an apply encodes
        // two entries per instance, and the keys are constants with nothing to escape. The bytes are those
        // GoJsonWriter#compact writes for the same members in the same order (JournalTest checks it).
        GoJsonWriter w = new GoJsonWriter(256);
        switch (e) {
            case JournalEntry.SetObject s -> {
                w.ascii("{\"entry\":\"set_object\"");
                resource(w, s.resource());
                w.ascii(",\"provider\":");
                w.string(s.provider().toString());
                w.ascii(",\"object\":");
                w.compact(StateCodec.instanceToJson(s.object()));
            }
            case JournalEntry.RemoveObject r -> {
                w.ascii("{\"entry\":\"remove_object\"");
                resource(w, r.instance().containingResource());
                switch (r.instance().resource().key()) {
                    case InstanceKey.NoKey n -> {}
                    case InstanceKey.IntKey i -> {
                        w.ascii(",\"index_key\":");
                        w.ascii(Integer.toString(i.index()));
                    }
                    case InstanceKey.StringKey s -> {
                        w.ascii(",\"index_key\":");
                        w.string(s.key());
                    }
                }
                if (r.deposed() != null) {
                    w.ascii(",\"deposed\":");
                    w.string(r.deposed());
                }
            }
            case JournalEntry.SetOutput o -> {
                w.ascii("{\"entry\":\"set_output\",\"name\":");
                w.string(o.name());
                w.ascii(",\"output\":");
                w.compact(StateCodec.outputToJson(o.value()));
            }
            case JournalEntry.RemoveOutput o -> {
                w.ascii("{\"entry\":\"remove_output\",\"name\":");
                w.string(o.name());
            }
            case JournalEntry.Intent i -> {
                w.ascii("{\"entry\":\"intent\",\"operation\":");
                w.string(i.operationId());
                w.ascii(",\"address\":");
                w.string(i.instance().toString());
                w.ascii(",\"action\":");
                w.string(i.action());
            }
            case JournalEntry.Completed c -> {
                w.ascii("{\"entry\":\"completed\",\"operation\":");
                w.string(c.operationId());
            }
        }
        // Straight to bytes: a String, its concatenation with the newline and its encoding would be three
        // more copies of an object that may hold a value of tens of megabytes.
        w.raw((byte) '}');
        w.raw((byte) '\n');
        return w.toByteArray();
    }

    /** A whole line: the header, then {@code body} (from {@link #body}) after its opening brace. */
    static byte[] line(byte[] body, String lineage, long baseSerial, long seq) {
        return join(header(lineage, baseSerial, seq), body);
    }

    /** A {@link #header} and a {@link #body}: one line. */
    static byte[] join(byte[] head, byte[] body) {
        byte[] line = new byte[head.length + body.length - 1];
        System.arraycopy(head, 0, line, 0, head.length);
        System.arraycopy(body, 1, line, head.length, body.length - 1);
        return line;
    }

    /** {@code {"seq":N,"lineage":"…","base_serial":S,}: what precedes an entry's body on its line. */
    static byte[] header(String lineage, long baseSerial, long seq) {
        return header(tail(lineage, baseSerial), seq);
    }

    /**
     * The header's part after the sequence number, {@code ,"lineage":"…","base_serial":S,}: the same for every
     * line until the next compaction, so a state manager encodes it once per snapshot and only the number per
     * line.
     */
    static byte[] tail(String lineage, long baseSerial) {
        GoJsonWriter w = new GoJsonWriter(96);
        w.ascii(",\"lineage\":");
        w.string(lineage);
        w.ascii(",\"base_serial\":");
        w.ascii(Long.toString(baseSerial));
        // The header object's closing brace would become the comma before the body's first member.
        w.raw((byte) ',');
        return w.toByteArray();
    }

    /** {@code {"seq":N} and a {@link #tail}. */
    static byte[] header(byte[] tail, long seq) {
        String n = Long.toString(seq);
        byte[] head = new byte[SEQ.length() + n.length() + tail.length];
        int p = 0;
        for (int i = 0; i < SEQ.length(); i++) {
            head[p++] = (byte) SEQ.charAt(i);
        }
        for (int i = 0; i < n.length(); i++) {
            head[p++] = (byte) n.charAt(i);
        }
        System.arraycopy(tail, 0, head, p, tail.length);
        return head;
    }

    private static final String SEQ = "{\"seq\":";

    private static void resource(GoJsonWriter w, AbsResource r) {
        w.ascii(",\"module\":");
        w.string(r.module().toString());
        w.ascii(",\"mode\":");
        w.string(r.resource().mode().jsonName());
        w.ascii(",\"type\":");
        w.string(r.resource().type());
        w.ascii(",\"name\":");
        w.string(r.resource().name());
    }

    /** Applies one entry to a snapshot (pure). */
    static StateSnapshot apply(StateSnapshot s, JournalEntry e) {
        return switch (e) {
            case JournalEntry.SetObject set -> {
                // Placed by binary search in the sorted resources: one lookup and one chunk copy per entry.
                SortedResources rs = SortedResources.of(s.resources());
                int i = SortedResources.indexOf(rs, set.resource());
                if (i >= 0) {
                    ResourceState r = rs.get(i);
                    yield s.withResources(rs.with(
                            i,
                            new ResourceState(
                                    r.addr(),
                                    r.each(),
                                    set.provider(),
                                    ResourceState.placed(r.instances(), set.object()),
                                    r.extra())));
                }
                yield s.withResources(rs.inserted(
                        -i - 1, new ResourceState(set.resource(), null, set.provider(), List.of(set.object()), null)));
            }
            case JournalEntry.RemoveObject rm -> {
                List<ResourceState> out = new ArrayList<>();
                for (ResourceState r : s.resources()) {
                    if (!r.addr().equals(rm.instance().containingResource())) {
                        out.add(r);
                        continue;
                    }
                    List<ResourceInstanceObject> kept = r.instances().stream()
                            .filter(o ->
                                    !(o.key().equals(rm.instance().resource().key())
                                            && java.util.Objects.equals(o.deposed(), rm.deposed())))
                            .toList();
                    if (!kept.isEmpty()) {
                        out.add(r.withInstances(kept));
                    }
                }
                yield s.withResources(out);
            }
            case JournalEntry.SetOutput o -> {
                Map<String, OutputValue> outs = new LinkedHashMap<>(s.outputs());
                outs.put(o.name(), o.value());
                yield s.withOutputs(outs);
            }
            case JournalEntry.RemoveOutput o -> {
                Map<String, OutputValue> outs = new LinkedHashMap<>(s.outputs());
                outs.remove(o.name());
                yield s.withOutputs(outs);
            }
            case JournalEntry.Intent i -> s;
            case JournalEntry.Completed c -> s;
        };
    }

    /** Replays journal bytes over {@code base}; a final line without its newline was never acknowledged and is dropped. */
    static Result<Replay> replay(StateSnapshot base, byte[] bytes, String name) {
        StateSnapshot s = base;
        int applied = 0;
        OpenIntents open = new OpenIntents();
        int start = 0;
        int lineNo = 0;
        boolean torn = false;
        boolean stale = false;
        while (start < bytes.length) {
            int nl = start;
            while (nl < bytes.length && bytes[nl] != '\n') {
                nl++;
            }
            lineNo++;
            if (nl == bytes.length) {
                torn = true;
                break;
            }
            byte[] lineBytes = java.util.Arrays.copyOfRange(bytes, start, nl);
            start = nl + 1;
            Result<JournalEntry> r = decode(lineBytes, name, lineNo, base);
            if (r.hasErrors()) {
                return Result.of(null, r.diagnostics());
            }
            if (r.value() == null) {
                stale = true;
                continue;
            }
            JournalEntry e = r.value();
            s = apply(s, e);
            applied++;
            open.track(e);
        }
        LOG.debug(
                "journal {} replayed: {} entries ({} bytes) over serial {}, {} operations without a result{}{}",
                name,
                applied,
                bytes.length,
                base.serial(),
                open.list().size(),
                torn ? ", torn last line dropped" : "",
                stale ? ", entries of an older serial skipped" : "");
        return Result.of(new Replay(s, applied, open.list(), torn, stale));
    }

    /** What an entry changes, for a log line: kinds, addresses and names, never a value. */
    static String describe(JournalEntry e) {
        return switch (e) {
            case JournalEntry.SetObject o -> "set " + o.resource() + (o.object().deposed() == null ? "" : " (deposed)");
            case JournalEntry.RemoveObject o -> "remove " + o.instance() + (o.deposed() == null ? "" : " (deposed)");
            case JournalEntry.SetOutput o -> "set output " + o.name();
            case JournalEntry.RemoveOutput o -> "remove output " + o.name();
            case JournalEntry.Intent i -> "intent " + i.action() + " " + i.instance();
            case JournalEntry.Completed c -> "completed " + c.operationId();
        };
    }

    /** The entry, or null when it belongs to a snapshot already compacted (older serial of the same lineage). */
    private static Result<JournalEntry> decode(byte[] line, String name, int lineNo, StateSnapshot base) {
        String where = name + " line " + lineNo;
        Result<JsonValue> parsed = JsonReader.parseDocument(line, where);
        if (parsed.hasErrors() || !(parsed.value() instanceof JsonValue.ObjectValue o)) {
            return bad(where, "it is not a JSON object");
        }
        String lineage = text(o, "lineage");
        long baseSerial = o.get("base_serial") instanceof JsonValue.NumberValue n && n.isLong()
                ? n.decimal().longValueExact()
                : -1;
        if (!lineage.equals(base.lineage())) {
            return bad(
                    where,
                    "it belongs to lineage \"" + lineage + "\", but the state has lineage \"" + base.lineage() + "\"");
        }
        if (baseSerial < base.serial()) {
            return Result.of(null);
        }
        if (baseSerial > base.serial()) {
            return bad(
                    where,
                    "it applies to serial " + baseSerial + ", newer than the state's serial " + base.serial()
                            + " (the state file was replaced by an older one?)");
        }
        AbsResource r = null;
        ResourceMode mode = switch (text(o, "mode")) {
            case "managed" -> ResourceMode.MANAGED;
            case "data" -> ResourceMode.DATA;
            default -> null;
        };
        ModuleInstance module = Addrs.parseModuleInstance(text(o, "module")).value();
        if (mode != null && module != null) {
            r = module.resource(new Resource(mode, text(o, "type"), text(o, "name")));
        }
        switch (text(o, "entry")) {
            case "set_object" -> {
                Result<ResourceInstanceObject> obj = StateCodec.instanceFromJson(
                        o.get("object") == null ? JsonValue.NULL : o.get("object"), where, String.valueOf(r));
                if (r == null || obj.hasErrors() || obj.value() == null) {
                    return bad(where, "its object is invalid");
                }
                AbsProviderConfig provider =
                        AbsProviderConfig.parse(text(o, "provider")).value();
                if (provider == null) {
                    return bad(where, "its provider configuration is invalid");
                }
                return Result.of(new JournalEntry.SetObject(r, provider, obj.value()));
            }
            case "remove_object" -> {
                if (r == null) {
                    return bad(where, "it names no resource");
                }
                InstanceKey key = switch (o.get("index_key")) {
                    case JsonValue.NumberValue n
                    when n.isLong() && n.decimal().signum() >= 0 && n.decimal().longValueExact() <= Integer.MAX_VALUE ->
                        InstanceKey.of(n.decimal().intValueExact());
                    case JsonValue.StringValue sv -> InstanceKey.of(sv.value());
                    case null, default -> InstanceKey.NONE;
                };
                String deposed = o.get("deposed") instanceof JsonValue.StringValue d ? d.value() : null;
                return Result.of(new JournalEntry.RemoveObject(r.instance(key), deposed));
            }
            case "set_output" -> {
                Result<OutputValue> out =
                        StateCodec.outputFromJson(o.get("output") == null ? JsonValue.NULL : o.get("output"), where);
                if (out.hasErrors() || out.value() == null) {
                    return bad(where, "its output is invalid");
                }
                return Result.of(new JournalEntry.SetOutput(text(o, "name"), out.value()));
            }
            case "remove_output" -> {
                return Result.of(new JournalEntry.RemoveOutput(text(o, "name")));
            }
            case "intent" -> {
                Result<AbsResourceInstance> a = Addrs.parseAbsResourceInstance(text(o, "address"));
                if (a.hasErrors() || a.value() == null) {
                    return bad(where, "its address is invalid");
                }
                return Result.of(new JournalEntry.Intent(text(o, "operation"), a.value(), text(o, "action")));
            }
            case "completed" -> {
                return Result.of(new JournalEntry.Completed(text(o, "operation")));
            }
            default -> {
                return bad(where, "its kind \"" + text(o, "entry") + "\" is unknown (written by a newer Strata?)");
            }
        }
    }

    private static String text(JsonValue.ObjectValue o, String k) {
        return o.get(k) instanceof JsonValue.StringValue s ? s.value() : "";
    }

    private static Result<JournalEntry> bad(String where, String why) {
        return Result.of(
                null,
                Diagnostics.of(Diagnostic.error(
                        "Invalid state journal",
                        "The journal entry at " + where
                                + " cannot be replayed: " + why
                                + ". The snapshot itself is intact; entries after it are what the last "
                                + "run recorded since its last compaction.",
                        null)));
    }
}
