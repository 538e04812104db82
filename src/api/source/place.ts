/**
 * Where a failed call failed, told as exact only when checked: the opcode log's call stack located through the
 * source maps (./locate), each place confirmed against the build's AST (./confirm). The failing frame's place is
 * exact when confirmed; otherwise the likely analysis of its function (./likely) gives the candidates, the source
 * map's place first when it is one of them, and the reason it was not confirmed. The frames above it, and the
 * internal calls, keep a place only with its confirmation. Plain TypeScript, no `vscode`.
 */
import type { CallStack, OpcodeEntry, StackFrame } from './callStack';
import { type Confirmation, confirmFailing, confirmLocation } from './confirm';
import { type LikelyCandidate, type LikelyResult, likelyLocations } from './likely';
import {
  BuildSources,
  ContractLocator,
  type FrameBuild,
  type LocatedFrame,
  type SourceLocation,
  locateCallStack,
} from './locate';

export interface PlacedFrame extends LocatedFrame {
  /** Whether `location` was confirmed (undefined when there is no location). */
  confirmation?: Confirmation;
  /** The internal call sites that were confirmed (outermost first). */
  confirmedInternal: SourceLocation[];
}

export interface Placement {
  /** The call stack, innermost first, every frame with its confirmation. */
  frames: PlacedFrame[];
  /** The failing frame's place is confirmed: the whole stack can be shown as exact. */
  exact: boolean;
  /**
   * When the failing frame has a build but its place is not confirmed: the likely places of its function, the source
   * map's place first when it is one of them (`hint`), and why the source map's place was not taken as exact.
   */
  likely?: {
    result: LikelyResult;
    candidates: LikelyCandidate[];
    hint?: SourceLocation;
    why: string;
    build: FrameBuild;
    frame: StackFrame;
  };
}

const contains = (a: SourceLocation, b: SourceLocation): boolean =>
  a.sourceName === b.sourceName && a.start <= b.start && a.start + a.length >= b.start + b.length;

/** The call stack placed and confirmed (see the module comment). Never throws: a build it cannot read places nothing. */
export function placeFailure(
  stack: CallStack,
  opcodes: ArrayLike<OpcodeEntry>,
  resolve: (frame: StackFrame) => FrameBuild | undefined,
): Placement {
  try {
    return place(stack, opcodes, resolve);
  } catch (e) {
    const problem = `The build could not be read to place this failure (${e instanceof Error ? e.message : String(e)}).`;
    return {
      frames: stack.frames.map((frame) => ({ frame, internal: [], confirmedInternal: [], problem })),
      exact: false,
    };
  }
}

function place(
  stack: CallStack,
  opcodes: ArrayLike<OpcodeEntry>,
  resolve: (frame: StackFrame) => FrameBuild | undefined,
): Placement {
  const located = locateCallStack(stack, opcodes, resolve);
  let evidence: SourceLocation | undefined;
  const frames: PlacedFrame[] = located.map((lf, i) => {
    const fb = resolve(lf.frame);
    if (!fb) return { ...lf, confirmedInternal: [] };
    const confirmedInternal = lf.internal.filter(
      (l) =>
        confirmLocation({
          build: fb.build,
          contract: fb.contract,
          location: l,
          kind: 'internal',
          selector: lf.frame.selector,
          creation: fb.part === 'creation',
        }).confirmed,
    );
    const creation = fb.part === 'creation';
    const map = ContractLocator.of(fb.build, fb.contract, fb.part);
    if (i === 0 && lf.path && map && !(fb.match && !fb.match.match)) {
      // the failing frame: checked against the path that led to it (merged code, viaIR's revert helpers)
      const c = confirmFailing({
        build: fb.build,
        contract: fb.contract,
        location: lf.location,
        kind: lf.frame.kind,
        revertData: lf.frame.reason,
        selector: lf.frame.selector,
        creation,
        map,
        path: lf.path,
        callSites: lf.internal,
      });
      if (c.evidence) evidence = BuildSources.of(fb.build).locateSrc(c.evidence);
      // the failure may have been caught by the caller: with empty (or no) revert data the log cannot tell
      const unsure = stack.descentUnsure
        ? 'the revert data is empty, so the opcode log does not show whether the caller passed the failure on or caught it and failed on its own'
        : undefined;
      if (!c.confirmed || unsure)
        return {
          ...lf,
          confirmation: { confirmed: false, why: c.why ?? unsure ?? 'not confirmed' },
          confirmedInternal,
        };
      // a confirmed place whose source text is missing is not shown in its stead
      const location = c.src ? BuildSources.of(fb.build).locateSrc(c.src) : lf.location;
      if (!location)
        return {
          ...lf,
          confirmation: { confirmed: false, why: 'the build has no text of the source the confirmed statement is in' },
          confirmedInternal,
        };
      // a call site that is the failing statement itself (a call through a function variable) is not repeated
      const calls = confirmedInternal.filter(
        (l) => !(l.sourceName === location.sourceName && l.start === location.start && l.length === location.length),
      );
      return { ...lf, location, confirmation: { confirmed: true, what: c.what ?? '' }, confirmedInternal: calls };
    }
    if (!lf.location) return { ...lf, confirmedInternal };
    const confirmation = confirmLocation({
      build: fb.build,
      contract: fb.contract,
      location: lf.location,
      kind: lf.frame.kind,
      revertData: lf.frame.reason,
      selector: lf.frame.selector,
      creation: fb.part === 'creation',
    });
    return { ...lf, confirmation, confirmedInternal };
  });
  const first = frames[0];
  const exact = !!first?.location && first.confirmation?.confirmed === true;
  if (exact || !first || first.frame.precompile) return { frames, exact };
  const build = resolve(first.frame);
  if (!build || (first.problem && !first.location && build.match && !build.match.match)) return { frames, exact };
  const result = likelyLocations(build.build, build.contract, first.frame.selector, first.frame.reason, {
    creation: build.part === 'creation',
  });
  // the caller may have caught the failure and failed on its own: its statements are candidates too, after these
  const parent = stack.descentUnsure ? frames[1] : undefined;
  const pb = parent ? resolve(parent.frame) : undefined;
  if (parent && pb) {
    const more = likelyLocations(pb.build, pb.contract, parent.frame.selector, first.frame.reason, {
      creation: pb.part === 'creation',
    });
    result.candidates.push(
      ...more.candidates.filter(
        (c) =>
          !result.candidates.some(
            (k) => k.location.sourceName === c.location.sourceName && k.location.start === c.location.start,
          ),
      ),
    );
  }
  // the path's evidence (the statement it went through) says more than a place the optimizer shared
  const hint = evidence ?? first.location;
  const candidates = [...result.candidates];
  if (hint) {
    // the source map's place first, when it is (or holds, or lies in) one of the candidates
    const i = candidates.findIndex((c) => contains(c.location, hint) || contains(hint, c.location));
    if (i > 0) candidates.unshift(...candidates.splice(i, 1));
  }
  const why =
    first.confirmation && !first.confirmation.confirmed
      ? first.confirmation.why
      : (first.problem ?? 'the source map gives no place for the failing operation');
  return { frames, exact, likely: { result, candidates, ...(hint ? { hint } : {}), why, build, frame: first.frame } };
}
