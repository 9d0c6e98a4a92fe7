package dev.strata.lang.funcs;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A callable function: its parameters, an optional variadic parameter, how its result type is
 * computed, and its implementation. Immutable; built with {@link #builder(String)}.
 */
public final class Function {
    private final String name;
    private final List<Param> params;
    private final Param varParam;
    private final ReturnType returnType;
    private final Impl impl;

    private Function(String name, List<Param> params, Param varParam, ReturnType returnType, Impl impl) {
        this.name = name;
        this.params = List.copyOf(params);
        this.varParam = varParam;
        this.returnType = returnType;
        this.impl = impl;
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    public List<Param> params() {
        return params;
    }

    public Optional<Param> varParam() {
        return Optional.ofNullable(varParam);
    }

    /** The parameter that receives argument {@code index}, or empty past the end. */
    public Optional<Param> paramFor(int index) {
        if (index < params.size()) {
            return Optional.of(params.get(index));
        }
        return Optional.ofNullable(varParam);
    }

    /**
     * Calls the function. Arguments are converted to the parameter types; an argument of unknown
     * type (see {@link Param#allowDynamicType()}) gives an unknown result of unknown type; unknown
     * arguments give an unknown result of the computed type unless the parameter accepts unknowns; marks of
     * arguments whose parameter does not accept marks move onto the result. User errors come back
     * as a {@link CallResult.Failure}, never as an exception.
     */
    public CallResult call(List<Value> args) {
        Objects.requireNonNull(args);
        if (args.size() < params.size()) {
            Param missing = params.get(args.size());
            return new CallResult.Failure(
                    -1,
                    "Not enough function arguments",
                    "Function " + q(name) + " expects " + (varParam == null ? "" : "at least ") + params.size()
                            + " argument(s). Missing value for "
                            + q(missing.name()) + ".",
                    "not enough arguments");
        }
        if (varParam == null && args.size() > params.size()) {
            return new CallResult.Failure(
                    params.size(),
                    "Too many function arguments",
                    "Function " + q(name) + " expects only " + params.size() + " argument(s).",
                    "too many arguments");
        }
        EnumSet<Mark> resultMarks = EnumSet.noneOf(Mark.class);
        boolean sensitiveInput = false;
        boolean unknownInput = false;
        boolean dynamicInput = false;
        List<Value> converted = new ArrayList<>(args.size());
        for (int i = 0; i < args.size(); i++) {
            Param p = paramFor(i).orElseThrow();
            Value a = args.get(i);
            sensitiveInput |= a.hasMarkDeep(Mark.SENSITIVE);
            if (!p.allowMarked()) {
                resultMarks.addAll(a.deepMarks());
                a = a.unmarkDeep();
            }
            ConversionResult c = Convert.convert(a, p.type());
            if (c instanceof ConversionResult.Failed f) {
                return argFailure(i, p, f.message());
            }
            a = c.value();
            if (a.isNull() && !p.allowNull()) {
                return argFailure(i, p, "argument must not be null");
            }
            if (a.type() instanceof DynamicType && !p.allowDynamicType()) {
                // As cty: the result type can't be known, so the function is not called and later
                // arguments are not checked; the marks of every argument still reach the result.
                dynamicInput = true;
                for (Value x : args) {
                    resultMarks.addAll(x.deepMarks());
                }
                break;
            }
            if (!p.allowUnknown() && !a.isWhollyKnown()) {
                unknownInput = true;
            }
            converted.add(a);
        }
        if (dynamicInput) {
            return new CallResult.Success(Value.DYNAMIC_UNKNOWN.withMarks(resultMarks));
        }
        List<Value> frozen = List.copyOf(converted);
        try {
            Type rt = returnType.of(frozen);
            if (unknownInput) {
                return new CallResult.Success(Value.unknown(rt).withMarks(resultMarks));
            }
            Value result = impl.call(frozen, rt);
            return new CallResult.Success(result.withMarks(resultMarks));
        } catch (ArithmeticException e) {
            // Infinite numbers reach functions that need finite ones.
            return new CallResult.Failure(
                    -1,
                    "Error in function call",
                    "Call to function " + q(name) + " failed: " + e.getMessage() + ".",
                    e.getMessage());
        } catch (FunctionError e) {
            String msg = e.revealsValue() && sensitiveInput
                    ? "the given value is sensitive, so the details of this error are hidden"
                    : e.getMessage();
            if (e.argIndex() >= 0 && e.argIndex() < args.size()) {
                return argFailure(e.argIndex(), paramFor(e.argIndex()).orElseThrow(), msg);
            }
            return new CallResult.Failure(
                    -1, "Error in function call", "Call to function " + q(name) + " failed: " + msg + ".", msg);
        }
    }

    /**
     * Checks a call without running it: every argument is replaced by an unknown of its type
     * (marks kept), so the result is an unknown of the function's result type, or the failure
     * that arity, argument types or the return-type rule would report. For validation, where
     * values are not known yet.
     */
    public CallResult typeCheck(List<Value> args) {
        List<Value> unknowns = new ArrayList<>(args.size());
        for (Value a : args) {
            unknowns.add(Value.unknown(a.type()).withMarks(a.marks()));
        }
        return call(unknowns);
    }

    /**
     * This function with the same parameters and result type, but whose result is always unknown:
     * for the impure functions while planning, whose values Terraform leaves to apply time.
     * Arguments are still checked.
     */
    public Function unpredictable() {
        return new Function(name, params, varParam, returnType, (args, rt) -> Value.unknown(rt));
    }

    /** Calls with the given arguments; convenient for tests and for callers with literal args. */
    public CallResult call(Value... args) {
        return call(List.of(args));
    }

    private static CallResult argFailure(int i, Param p, String msg) {
        return new CallResult.Failure(
                i, "Invalid function argument", "Invalid value for " + q(p.name()) + " parameter: " + msg + ".", msg);
    }

    private static String q(String s) {
        return '"' + s + '"';
    }

    @Override
    public String toString() {
        return "function " + name;
    }

    /** Builds a {@link Function}. */
    public static final class Builder {
        private final String name;
        private final List<Param> params = new ArrayList<>();
        private Param varParam;
        private ReturnType returnType;
        private Impl impl;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name);
        }

        public Builder param(Param p) {
            params.add(p);
            return this;
        }

        public Builder param(String name, Type type) {
            return param(Param.of(name, type));
        }

        public Builder varParam(Param p) {
            varParam = p;
            return this;
        }

        public Builder returns(Type t) {
            returnType = ReturnType.fixed(t);
            return this;
        }

        public Builder returns(ReturnType rt) {
            returnType = rt;
            return this;
        }

        public Builder impl(Impl impl) {
            this.impl = impl;
            return this;
        }

        public Function build() {
            Set<String> names = new java.util.HashSet<>();
            for (Param p : params) {
                if (!names.add(p.name())) {
                    throw new IllegalStateException("duplicate parameter " + p.name());
                }
            }
            return new Function(
                    name,
                    params,
                    varParam,
                    Objects.requireNonNull(returnType, "returns"),
                    Objects.requireNonNull(impl, "impl"));
        }
    }
}
