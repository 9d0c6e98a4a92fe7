package dev.strata.lang.funcs;

import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test-only reader for the literal expressions used in the console cases: strings, numbers,
 * bools, null, tuples, objects, unary minus on numbers, and function calls (with a trailing
 * {@code ...}), evaluated against a function table. Not an evaluator for the language.
 */
final class ExprParser {
  /** A failed call, carried out of the parse. */
  static final class CallFailed extends RuntimeException {
    final CallResult.Failure failure;

    CallFailed(CallResult.Failure f) {
      super(f.detail());
      this.failure = f;
    }
  }

  private final String s;
  private final FunctionTable table;
  private int i;

  private ExprParser(String s, FunctionTable table) {
    this.s = s;
    this.table = table;
  }

  static Value eval(String expr, FunctionTable table) {
    ExprParser p = new ExprParser(expr, table);
    Value v = p.expr();
    p.ws();
    if (p.i != p.s.length()) {
      throw new IllegalArgumentException("trailing input at " + p.i + " in " + expr);
    }
    return v;
  }

  private void ws() {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\n' || s.charAt(i) == '\t')) {
      i++;
    }
  }

  private boolean eat(String tok) {
    ws();
    if (s.startsWith(tok, i)) {
      i += tok.length();
      return true;
    }
    return false;
  }

  private void expect(String tok) {
    if (!eat(tok)) {
      throw new IllegalArgumentException("expected " + tok + " at " + i + " in " + s);
    }
  }

  private Value expr() {
    ws();
    char c = s.charAt(i);
    if (c == '"') {
      return Value.string(string());
    }
    if (c == '-' || Character.isDigit(c)) {
      int st = i;
      i++;
      while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.' || s.charAt(i) == 'e'
          || s.charAt(i) == 'E' || ((s.charAt(i) == '-' || s.charAt(i) == '+') && (s.charAt(i - 1) == 'e' || s.charAt(i - 1) == 'E')))) {
        i++;
      }
      return Value.number(new BigDecimal(s.substring(st, i)));
    }
    if (c == '[') {
      i++;
      List<Value> es = new ArrayList<>();
      while (!eat("]")) {
        es.add(expr());
        eat(",");
      }
      return Value.tuple(es);
    }
    if (c == '{') {
      i++;
      Map<String, Value> m = new LinkedHashMap<>();
      while (!eat("}")) {
        ws();
        String key;
        if (s.charAt(i) == '"') {
          key = string();
        } else {
          key = ident();
        }
        if (!eat("=")) {
          expect(":");
        }
        m.put(key, expr());
        eat(",");
      }
      return Value.object(m);
    }
    String id = ident();
    switch (id) {
      case "true":
        return Value.TRUE;
      case "false":
        return Value.FALSE;
      case "null":
        return Value.NULL;
      default:
        break;
    }
    expect("(");
    List<Value> args = new ArrayList<>();
    while (!eat(")")) {
      Value a = expr();
      if (eat("...")) {
        args.addAll(a.elements());
      } else {
        args.add(a);
      }
      eat(",");
    }
    Function f = table.lookup(id).orElseThrow(() -> new IllegalArgumentException("no function " + id));
    CallResult r = f.call(args);
    if (r instanceof CallResult.Failure fail) {
      throw new CallFailed(fail);
    }
    return r.value();
  }

  private String ident() {
    ws();
    int st = i;
    while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == ':')) {
      i++;
    }
    if (st == i) {
      throw new IllegalArgumentException("expected a name at " + i + " in " + s);
    }
    return s.substring(st, i);
  }

  private String string() {
    i++;
    StringBuilder b = new StringBuilder();
    while (s.charAt(i) != '"') {
      char c = s.charAt(i++);
      if (c == '$' && s.startsWith("${", i - 1)) {
        throw new IllegalArgumentException("templates are not supported");
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = s.charAt(i++);
      switch (e) {
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case '"' -> b.append('"');
        case '\\' -> b.append('\\');
        case 'u' -> {
          b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          i += 4;
        }
        default -> throw new IllegalArgumentException("escape \\" + e);
      }
    }
    i++;
    return b.toString();
  }
}
