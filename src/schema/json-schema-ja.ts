// Japanese texts of the generated JSON Schema (schemas/workitems.schema.ja.json),
// for hovers and completions when VS Code's display language is Japanese. Texts
// that the UI already translates (template labels and descriptions, problem
// messages) come from l10n/bundle.l10n.ja.json; these are the schema's own. A unit
// test fails when a text of the schema has no Japanese. No vscode import.

/** English schema text -> Japanese. */
export const JSON_SCHEMA_JA: Readonly<Record<string, string>> = {
  'A bulk update of work items: the IDs of the work items ("workItemIds") and the change to make to each ("update"), or several such requests sent as one change ("requests"). Send it with the "Send" CodeLens at the top of the file.':
    '作業項目の一括更新です。作業項目の ID ("workItemIds") と、それぞれに加える変更 ("update") を書きます。複数のリクエストを 1 つの変更として送るときは "requests" に並べます。ファイル先頭の「送信」CodeLens で送信します。',
  'A change of several requests, sent in this order, previewed, confirmed, sent and undone as one (instead of "workItemIds" and "update"). A field of a work item may be changed by one request only.':
    '複数のリクエストからなる 1 つの変更です ("workItemIds" と "update" の代わりに書きます)。この順に送信し、プレビュー・確認・送信・元に戻すを 1 つの変更として行います。作業項目の 1 つのフィールドを変更できるのは 1 つのリクエストだけです。',
  'What this request does (not sent to the service).': 'このリクエストの内容の説明 (サービスには送信されません)。',
  'Fields of the new item, keyed by system name (case-sensitive): ItemTypeId and Name are required, e.g. {"ItemTypeId": "4", "Name": "Design", "PlannedStartDate": "2027-01-04"}.':
    '新しい項目のフィールド。キーはシステム名です (大文字と小文字を区別します)。ItemTypeId と Name は必須です (例: {"ItemTypeId": "4", "Name": "Design", "PlannedStartDate": "2027-01-04"})。',
  'Fields of the new item, keyed by system name (case-sensitive); ItemTypeId and Name are required, e.g. {"ItemTypeId": "4", "Name": "Design"}.':
    '新しい項目のフィールド。キーはシステム名です (大文字と小文字を区別します)。ItemTypeId と Name は必須です (例: {"ItemTypeId": "4", "Name": "Design"})。',
  "How each field's value is determined, keyed by field name; a formula cannot be set.": '各フィールドの値の決定方法。キーはフィールド名です。数式は設定できません。',
  'ID of the item type of the new item (required); completion offers the item types of the project by name.': '新しい項目の項目タイプの ID (必須)。補完では、プロジェクトの項目タイプを名前で選べます。',
  'Assignments of the new item.': '新しい項目の割り当て。',
  'Strings kept with the new item, keyed by name (not in every copy of the help).': '新しい項目とともに保存される文字列。キーは名前です (ヘルプの版によっては記載がありません)。',
  'Insert directly before the given sibling; "0" means insert at the end.': '指定した兄弟項目の直前に挿入します。"0" は末尾への挿入です。',
  'Insert directly after the given sibling; "0" means insert at the beginning.': '指定した兄弟項目の直後に挿入します。"0" は先頭への挿入です。',
  'true: insert at the beginning; otherwise nothing happens.': 'true: 先頭に挿入します。それ以外では何もしません。',
  'true: insert at the end; otherwise nothing happens.': 'true: 末尾に挿入します。それ以外では何もしません。',
  'ID of the folder or work item to add below.': '追加先 (この下に追加する) フォルダーまたは作業項目の ID。',
  'Adds a work item (with its sub-items) directly below "parentId", instead of "workItemIds" and "update": the body of POST /workitem/workItems/{parentId}/subItems beside the parent ID. Sent as one request; undone by deleting what it added.':
    '"parentId" の直下に作業項目を (サブ項目とともに) 追加します ("workItemIds" と "update" の代わりに書きます)。親 ID と並べて書く POST /workitem/workItems/{parentId}/subItems の本文です。1 つのリクエストで送信し、追加したものを削除して元に戻します。',
  'IDs of the work items to delete: a list of IDs, or one string of IDs separated by commas, spaces or new lines.':
    '削除する作業項目の ID。ID のリスト、またはカンマ・空白・改行で区切った ID の文字列です。',
  'Deletes work items, instead of "workItemIds" and "update": DELETE /workitem/workItems/{workItemIds}. A deleted item goes with the items below it; the update\'s "restore" brings it back.':
    '作業項目を削除します ("workItemIds" と "update" の代わりに書きます)。DELETE /workitem/workItems/{workItemIds} です。削除した項目はその下の項目とともに削除され、更新の "restore" で元に戻せます。',
  'Items to add below this one, in order (added with it in one transaction).': 'この項目の下に追加する項目 (順番どおり。この項目と 1 つのトランザクションで追加します)。',
  'Assignments to add.': '追加する割り当て。',
  'Assignments to update.': '更新する割り当て。',
  'Change to assignments.': '割り当ての変更。',
  'Code of the work item (at most 256 characters).': '作業項目のコード (256 文字以内)。',
  'Days to shift the period; positive moves it later, negative moves it earlier.': '期間をずらす日数。正の値で後ろへ、負の値で前へずらします。',
  'Description of the work item.': '作業項目の説明。',
  'Each entry of "workItemIds" must be a string or a whole number.': '"workItemIds" の各要素は文字列または整数でなければなりません。',
  'Planned finish date (yyyy-MM-dd); not earlier than the planned start date.': '予定終了日 (yyyy-MM-dd)。予定開始日より前にはできません。',
  'Field(s) whose determination method is cleared; several names separated by commas.': '決定方法をクリアするフィールド。複数の名前はカンマで区切ります。',
  'Fields to copy down to the lowest-level sub-items.': '最下位のサブ項目までコピーするフィールド。',
  'Fields to update, keyed by field name (case-sensitive), e.g. {"Name": "...", "PlannedTime": 480}. Names outside the known list are sent as written (with a warning).':
    '更新するフィールド。キーはフィールド名です (大文字と小文字を区別します。例: {"Name": "...", "PlannedTime": 480})。既知の一覧にない名前は、書いたとおりに送信されます (警告付き)。',
  'Folder to restore into.': '復元先のフォルダー。',
  "How each field's value is determined, keyed by field name.": '各フィールドの値の決定方法。キーはフィールド名です。',
  'How the value of ActualProgress is determined. Known values: Manual, ActualTime, Children (other values get a warning; "Formula" cannot be set here).':
    'ActualProgress の値の決定方法。既知の値: Manual、ActualTime、Children (ほかの値には警告が出ます。"Formula" はここでは設定できません)。',
  'How the value of PlannedFinishDate is determined. Known values: Manual, Children (other values get a warning; "Formula" cannot be set here).':
    'PlannedFinishDate の値の決定方法。既知の値: Manual、Children (ほかの値には警告が出ます。"Formula" はここでは設定できません)。',
  'How the value of PlannedCost is determined. Known values: Manual, PlannedTime, Children (other values get a warning; "Formula" cannot be set here).':
    'PlannedCost の値の決定方法。既知の値: Manual、PlannedTime、Children (ほかの値には警告が出ます。"Formula" はここでは設定できません)。',
  'How the value of PlannedTime is determined. Known values: Manual, Assignments, Children (other values get a warning; "Formula" cannot be set here).':
    'PlannedTime の値の決定方法。既知の値: Manual、Assignments、Children (ほかの値には警告が出ます。"Formula" はここでは設定できません)。',
  'How the value of PlannedStartDate is determined. Known values: Manual, Children (other values get a warning; "Formula" cannot be set here).':
    'PlannedStartDate の値の決定方法。既知の値: Manual、Children (ほかの値には警告が出ます。"Formula" はここでは設定できません)。',
  'ID of an available process classification (process category).': '利用できるプロセス分類の ID。',
  'ID of an available status type.': '利用できる状態種別の ID。',
  'ID of an available work classification (time entry category).': '利用できる作業分類 (TimeEntryCategory) の ID。',
  'ID of the item to copy assignments from.': '割り当てのコピー元の項目の ID。',
  'ID of the item type to change to.': '変更先の項目タイプの ID。',
  'ID of the parent item to move to.': '移動先の親項目の ID。',
  'IDs of the work items to update: a list of IDs, or one string of IDs separated by commas, spaces or new lines (a column pasted from a spreadsheet). Duplicates are sent once; more than 1000 IDs are split into several requests.':
    '更新する作業項目の ID。ID のリスト、またはカンマ・空白・改行で区切った ID の文字列 (スプレッドシートから貼り付けた列) です。重複は 1 回だけ送信し、1000 件を超える ID は複数のリクエストに分けます。',
  'Insert directly after the given item; value "0" means insert at the beginning. Needs moveParentTo.': '指定した項目の直後に挿入します。値 "0" は先頭への挿入です。moveParentTo が必要です。',
  'Insert directly before the given item; value "0" means insert at the end. Needs moveParentTo.': '指定した項目の直前に挿入します。値 "0" は末尾への挿入です。moveParentTo が必要です。',
  'List of assignments.': '割り当ての一覧。',
  'Login name, LDAP login name, e-mail address or name (not empty).': 'ログイン名、LDAP ログイン名、メール アドレスまたは名前 (空にはできません)。',
  'Name of the work item (1 to 256 characters).': '作業項目の名称 (1 ～ 256 文字)。',
  'Party ID (a user or user group ID).': '担当者 ID (ユーザーまたはユーザー グループの ID)。',
  'Party ID of the assignment to update (a user or user group ID); with "user" given, the new party.':
    '更新する割り当ての担当者 ID (ユーザーまたはユーザー グループの ID)。"user" も指定した場合は新しい担当者です。',
  'Planned cost (ignored for a caller without cost permission).': '予定原価 (コストの権限がない呼び出し元では無視されます)。',
  'Planned effort.': '予定工数。',
  'Progress percentage (100 means complete, 0 means incomplete).': '進捗率 (100 は完了、0 は未完了)。',
  'The assigned user: login name, LDAP login name, e-mail address or name (same matching rule as in an added assignment), or "#<party ID>". Optional when partyId names the assignment.':
    '割り当てられたユーザー: ログイン名、LDAP ログイン名、メール アドレスまたは名前 (追加する割り当てと同じ照合規則)、または "#<担当者 ID>"。partyId で割り当てを指定する場合は省略できます。',
  'Planned start date (yyyy-MM-dd).': '予定開始日 (yyyy-MM-dd)。',
  'System field names to copy to the lowest-level sub-items; several names are separated by a comma.': '最下位のサブ項目にコピーするシステム フィールド名。複数の名前はカンマで区切ります。',
  'The JSON Schema of this file (optional; ignored when sending).': 'このファイルの JSON スキーマ (省略可。送信時には無視されます)。',
  'The change to make to every listed work item: the body of PUT /workitem/workItems/{workItemIds}. Members may be combined; a document with errors is never sent.':
    '列挙したすべての作業項目に加える変更です。PUT /workitem/workItems/{workItemIds} の本文です。メンバーは組み合わせられます。エラーのある文書は送信されません。',
  'The base URL of the only service this document may be sent to, e.g. "https://pm.example.com/api" (optional). Create Undo Document writes the service of the job it undoes; Send refuses the document while another service is in use.':
    'この文書の送信先として許されるただ 1 つのサービスのベース URL です (例: "https://pm.example.com/api"。省略可)。「取り消し文書を作成」は、取り消すジョブのサービスを書き込みます。ほかのサービスを使用している間は、送信は拒否されます。',
  'User ID of the leader (must be a project member).': 'リーダーのユーザー ID (プロジェクト メンバーである必要があります)。',
  'User or project group ID to remove from the assignments; several IDs separated by commas, e.g. "13,17".': '割り当てから外すユーザーまたはプロジェクト グループの ID。複数の ID はカンマで区切ります (例: "13,17")。',
  "Users to remove; each entry is matched exactly against login name, LDAP login name, e-mail address or name, and the matching user's ID is removed.":
    '外すユーザー。各要素をログイン名、LDAP ログイン名、メール アドレスまたは名前と完全一致で照合し、一致したユーザーの ID を外します。',
  'What this request does, for the people who read or re-run it (not sent to the service).': 'このリクエストの内容の説明です。読む人や再実行する人のためのもので、サービスには送信されません。',
  'When it does not start with the prefix `#`, it denotes a user: the user whose login name, LDAP login name, e-mail address or name matches exactly is assigned.':
    '接頭辞 `#` で始まらない場合はユーザーを表します。ログイン名、LDAP ログイン名、メール アドレスまたは名前が完全一致するユーザーが割り当てられます。',
  'Work Item Studio request document': 'Work Item Studio のリクエスト文書',
  '`User` or `UserGroup`.': '`User` または `UserGroup`。',
  'true: clear start date and end date and delete the links; false: nothing happens.': 'true: 開始日と終了日をクリアし、リンクを削除します。false: 何もしません。',
  'true: clear the determination method of all fields.': 'true: すべてのフィールドの決定方法をクリアします。',
  'true: lock entry of actuals for the item and its descendants; false: unlock.': 'true: 項目とその子孫の実績入力をロックします。false: ロックを解除します。',
  'true: move to the beginning; otherwise nothing happens. Needs moveParentTo.': 'true: 先頭へ移動します。それ以外では何もしません。moveParentTo が必要です。',
  'true: move to the end; otherwise nothing happens. Needs moveParentTo.': 'true: 末尾へ移動します。それ以外では何もしません。moveParentTo が必要です。',
  'true: restore the (deleted) item; all other parameters are ignored.': 'true: (削除された) 項目を復元します。ほかのパラメーターはすべて無視されます。',
  'true: the item and its children become complete (progress 100%); false: incomplete (progress 0%).': 'true: 項目とその子が完了 (進捗 100%) になります。false: 未完了 (進捗 0%) になります。',
  "true: the item's planned effort becomes the sum of the assignments' planned effort; false: the item's planned effort is redistributed over the assignments.":
    'true: 項目の予定工数が割り当ての予定工数の合計になります。false: 項目の予定工数を割り当てに配分し直します。',
};

/** The sentence appended to a member written in another capitalisation, in Japanese. */
export function otherCaseJa(name: string): string {
  return `"${name}" と書いてください (メンバー名はキャメルケースです)。"${name}" として送信されます。`;
}
