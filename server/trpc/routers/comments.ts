import { z } from "zod";
import {
  addComment,
  deleteComment,
  editComment,
  listComments,
  markAllCommentsRead,
  markThreadRead,
  ZEditComment,
  ZNewComment,
} from "../../comments/comments";
import {
  addPrivateNote,
  deletePrivateNote,
  editPrivateNote,
  listPrivateNotes,
  ZEditNote,
  ZNewNote,
  ZNoteTarget,
} from "../../comments/private-notes";
import { ZThread } from "../../comments/threads";
import { readUnreadComments } from "../../comments/unread";
import { protectedProcedure, router } from "../init";

const ZId = z.object({ id: z.number().int().positive() });

/** Comments on sessions and trainings, and coaches' private notes (docs/comments.md). */
export const commentsRouter = router({
  list: protectedProcedure.input(ZThread).query(({ ctx, input }) => listComments(ctx.db, ctx.user.id, input)),
  add: protectedProcedure.input(ZNewComment).mutation(({ ctx, input }) => addComment(ctx.db, ctx.user.id, input)),
  edit: protectedProcedure.input(ZEditComment).mutation(({ ctx, input }) => editComment(ctx.db, ctx.user.id, input)),
  delete: protectedProcedure.input(ZId).mutation(({ ctx, input }) => deleteComment(ctx.db, ctx.user.id, input.id)),
  markRead: protectedProcedure.input(ZThread).mutation(({ ctx, input }) => markThreadRead(ctx.db, ctx.user.id, input)),
  markAllRead: protectedProcedure.mutation(({ ctx }) => markAllCommentsRead(ctx.db, ctx.user.id)),
  unread: protectedProcedure.query(({ ctx }) => readUnreadComments(ctx.db, ctx.user.id)),
  notes: protectedProcedure.input(ZNoteTarget).query(({ ctx, input }) => listPrivateNotes(ctx.db, ctx.user.id, input)),
  addNote: protectedProcedure.input(ZNewNote).mutation(({ ctx, input }) => addPrivateNote(ctx.db, ctx.user.id, input)),
  editNote: protectedProcedure.input(ZEditNote).mutation(({ ctx, input }) => editPrivateNote(ctx.db, ctx.user.id, input)),
  deleteNote: protectedProcedure.input(ZId).mutation(({ ctx, input }) => deletePrivateNote(ctx.db, ctx.user.id, input.id)),
});
